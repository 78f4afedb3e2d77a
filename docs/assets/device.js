// "My device": the reader picks their GPU or machine once (remembered in this browser), and
// every page answers for it: the verdict above the fold of a model page, a column on the card
// pages and the models index. The verdict and its words come from docs/assets/verdict.js, which
// asks the calculator's own estimator (window.tpsCalculator, docs/assets/calculator.js) on the
// site's one data file; the words from the page's translated labels (<script id="tps-ui">, tps_atlas/web/ui.py).
//
// ``?card=<id>`` on a model page shows the answer for that card to anyone who opens the link,
// without changing the device they chose.
(function () {
  "use strict";

  var calc = window.tpsCalculator, verdicts = window.tpsVerdict;
  var holder = document.getElementById("tps-ui");
  if (!calc || !verdicts || !holder) return;
  var ui = JSON.parse(holder.textContent);
  var f = new calc.Formatter(ui.language, ui.units);
  var escapeHtml = calc.escapeHtml;
  var memoryInName = calc.memoryInName;
  var STORAGE_KEY = "tps-atlas-device";
  var RESULTS = 8;

  // ---------------------------------------------------------------- the remembered device

  function stored() {
    try { return window.localStorage.getItem(STORAGE_KEY) || ""; } catch (error) { return ""; }
  }

  function remember(id) {
    try {
      if (id) window.localStorage.setItem(STORAGE_KEY, id);
      else window.localStorage.removeItem(STORAGE_KEY);
    } catch (error) { /* private mode: the choice lasts for this page only */ }
  }

  var pairCard = new URLSearchParams(window.location.search).get("card") || "";
  var data = null, byId = {}, chosen = null;

  // The device the page answers for: the link's card first, then the one this browser remembers.
  function device() {
    return byId[pairCard] || byId[stored()] || null;
  }

  // ---------------------------------------------------------------- search

  // The ranking is the calculator's (calculator.js searchCards, held to Python by tests/test_parity.py).
  function search(query) {
    return calc.searchCards(data.cards, query, RESULTS);
  }

  // A search field with its results: a button per device (name, vendor, memory).
  function pickerHtml(id) {
    return '<label class="tps-picker-label" for="' + id + '">' + escapeHtml(ui.choose) + "</label>" +
      '<input type="search" class="tps-picker-input" id="' + id + '" autocomplete="off" placeholder="' +
      escapeHtml(ui.placeholder) + '">' +
      '<p class="tps-picker-empty" role="status"></p><ul class="tps-picker-results"></ul>';
  }

  function wirePicker(root) {
    var input = root.querySelector(".tps-picker-input");
    var list = root.querySelector(".tps-picker-results");
    var status = root.querySelector(".tps-picker-empty");
    function show() {
      // The data file is read when a picker is first used, not by every page on load.
      if (!data) { ensureData().then(function () { if (data) show(); }); return; }
      var query = input.value;
      var cards = search(query);
      list.innerHTML = cards.map(function (c) {
        return '<li><button type="button" class="tps-picker-choice" data-card="' + escapeHtml(c.id) + '">' +
          '<span class="tps-picker-name">' + escapeHtml(c.name) + "</span> <small>" + escapeHtml(c.vendor) +
          (memoryInName(c) ? "" : " · " + escapeHtml(f.vram(c.vram_gb))) + "</small></button></li>";
      }).join("");
      status.textContent = query.trim() && !cards.length ? fillText(ui.no_match, { query: query.trim() }) : "";
    }
    input.addEventListener("input", show);
    input.addEventListener("focus", function () { ensureData(); });
    list.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-card]");
      if (!button) return;
      choose(button.getAttribute("data-card"));
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        var first = list.querySelector("button[data-card]");
        if (first) first.click();
      }
    });
    if (input.value) show();
    return input;
  }

  // Plain text from a phrase (for textContent): placeholders filled, nothing escaped.
  function fillText(phrase, values) {
    return String(phrase).replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : all;
    });
  }

  // ---------------------------------------------------------------- the header button

  var headerButton = null, panel = null;

  function setUpHeader() {
    var inner = document.querySelector(".md-header__inner");
    if (!inner) return;
    // The page's HTML has the button (tps_atlas/mkdocs/page_shell.py), so that it takes its place in the
    // first paint; a page without it gets one here.
    headerButton = inner.querySelector(".tps-device-button");
    if (!headerButton) {
      headerButton = document.createElement("button");
      headerButton.type = "button";
      headerButton.className = "tps-device-button";
      var search = inner.querySelector("label[for=__search]") || inner.lastElementChild;
      inner.insertBefore(headerButton, search);
    }
    headerButton.setAttribute("aria-expanded", "false");
    headerButton.addEventListener("click", function () { togglePanel(!panel || panel.hidden); });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && panel && !panel.hidden) { togglePanel(false); headerButton.focus(); }
    });
    // A click elsewhere closes the panel (but not the click on "Change" that opened it).
    document.addEventListener("click", function (event) {
      if (panel && !panel.hidden && !panel.contains(event.target) && !headerButton.contains(event.target) &&
          !(event.target.closest && event.target.closest(".tps-link-button"))) togglePanel(false);
    });
    labelHeader();
  }

  // The panel is made when first opened: a page that never opens it adds nothing to its body.
  function makePanel() {
    panel = document.createElement("div");
    panel.id = "tps-device-panel";
    panel.className = "tps-device-panel";
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-label", ui.choose);
    panel.hidden = true;
    panel.innerHTML = pickerHtml("tps-device-search") +
      '<p class="tps-device-forget"><button type="button" class="md-button">' + escapeHtml(ui.forget) + "</button></p>";
    document.body.appendChild(panel);
    headerButton.setAttribute("aria-controls", "tps-device-panel");
    wirePicker(panel);
    panel.querySelector(".tps-device-forget button").addEventListener("click", function () {
      remember("");
      pairCard = "";
      togglePanel(false);
      refresh();
    });
    panel.querySelector(".tps-device-forget").hidden = !stored();
  }

  function togglePanel(open) {
    if (!headerButton) return;
    if (!panel) {
      if (!open) return;
      makePanel();
    }
    panel.hidden = !open;
    headerButton.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) panel.querySelector("input").focus();
  }

  function labelHeader() {
    if (!headerButton) return;
    var d = data ? device() : null;
    headerButton.classList.toggle("tps-device-none", !d);
    headerButton.title = d ? d.name : ui.choose;
    var label = '<span class="tps-device-caption">' + escapeHtml(ui.my_device) + "</span> " +
      '<span class="tps-device-name">' + escapeHtml(d ? d.name : ui.choose) + "</span>";
    if (headerButton.innerHTML !== label) headerButton.innerHTML = label;  // the HTML's own, until a device is chosen
    if (panel) panel.querySelector(".tps-device-forget").hidden = !stored();
  }

  function choose(id) {
    remember(id);
    pairCard = "";  // the reader's own choice now answers
    togglePanel(false);
    refresh();
    var answer = document.querySelector(".tps-mydevice");
    if (answer) answer.focus();
  }

  // ---------------------------------------------------------------- answers

  // The calculator's current inputs (the address records them), defaults otherwise.
  function modelState(page) {
    var calcHolder = page.querySelector("script.tps-calculator");
    var labels = calcHolder ? JSON.parse(calcHolder.textContent) : null;
    var last = calc.last && calc.last.state;
    if (last) return last;
    var form = page.querySelector("form.tps-inputs");
    var values = function (select) { return select ? Array.from(select.options).map(function (o) { return o.value; }) : []; };
    var options = form ? { quants: values(form.elements.floor), kv: values(form.elements.kv),
                           ramKinds: values(form.elements.ramkind) } : {};
    var defaults = labels ? labels.defaults : { context: data.settings.context_tokens, floor: data.settings.min_quality };
    return calc.readState(window.location.search, defaults, options);
  }

  // A view's state as the estimator's options.
  function inputs(state) {
    return { context: state.context, floor: state.floor, kvPrecision: state.kv, ceiling: state.ceiling,
             ramGb: state.ram, ramKind: state.ramkind };
  }

  // One model on one device, as a few plain sentences (docs/assets/verdict.js).
  function answerHtml(modelId, modelName, card, state) {
    return verdicts.answerHtml(verdicts.decide(data, modelId, card.id, inputs(state)), ui, f, modelName);
  }

  function renderModelAnswer(box) {
    var page = box.closest(".tps-model");
    var d = device();
    if (!d) {
      box.removeAttribute("aria-live");
      if (box.getAttribute("data-shown") === "prompt" && box.querySelector(".tps-picker-input")) {
        if (!box.tpsWired) { box.tpsWired = true; wirePicker(box); }
        return;
      }
      box.setAttribute("data-shown", "prompt");
      box.innerHTML = "<p>" + escapeHtml(ui.prompt) + "</p>" + pickerHtml("tps-answer-search");
      box.tpsWired = true;
      wirePicker(box);
      return;
    }
    var state = modelState(page);
    // The view as the calculator last drew it (it writes the address a moment later).
    var query = new URLSearchParams(calc.last && calc.last.query !== undefined ? calc.last.query : window.location.search);
    query.set("card", d.id);
    box.setAttribute("data-shown", d.id);
    // A new answer (another device, or the calculator's inputs changed) is read out.
    box.setAttribute("aria-live", "polite");
    box.tabIndex = -1;  // focused after a choice, so a screen reader reads the answer
    box.innerHTML = answerHtml(box.getAttribute("data-model"), box.getAttribute("data-name"), d, state) +
      '<p class="tps-answer-actions"><a class="tps-pair-link" href="?' + escapeHtml(query.toString()) + '">' +
      escapeHtml(ui.pair_link) + '</a> · <button type="button" class="tps-link-button">' + escapeHtml(ui.change) +
      "</button></p>";
    box.querySelector(".tps-link-button").addEventListener("click", function () { togglePanel(true); });
  }

  // A column "On your <device>" in a table whose rows link to model pages.
  function markModels(table, linkCell, skip, state) {
    var d = device();
    var head = table.tHead.rows[0];
    var old = head.querySelector(".tps-yours");
    if (old) {
      head.removeChild(old);
      Array.from(table.tBodies[0].rows).forEach(function (row) {
        var cell = row.querySelector(".tps-yours");
        if (cell) row.removeChild(cell);
      });
    }
    if (!d || skip) return;
    var th = document.createElement("th");
    th.scope = "col";
    th.className = "tps-yours";
    th.textContent = fillText(verdicts.forKind(ui.on_device, d), { device: d.name });
    head.appendChild(th);
    // The card page's inputs where it has them, else the defaults.
    var options = state ? inputs(state) : {};
    Array.from(table.tBodies[0].rows).forEach(function (row) {
      var link = row.cells[linkCell] && row.cells[linkCell].querySelector("a");
      var match = link && /\/models\/([a-z0-9.-]+)\/$/.exec(link.pathname);
      var td = document.createElement("td");
      td.className = "tps-yours";
      if (match && data.models[match[1]]) td.innerHTML = verdicts.cellHtml(verdicts.decide(data, match[1], d.id, options), ui, f);
      row.appendChild(td);
    });
    calc.labelColumns(table);
  }

  function renderCardPage(page, state) {
    var d = device();
    var note = page.querySelector(".tps-yours-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "tps-yours-note";
      var intro = page.querySelector(".tps-intro");
      if (intro) intro.insertAdjacentElement("afterend", note);
    }
    note.hidden = !(d && d.id === page.getAttribute("data-card"));
    note.textContent = ui.this_is_yours;
    var table = page.querySelector("table.tps-models-table");
    if (table) markModels(table, 2, d && d.id === page.getAttribute("data-card"), state || page.tpsState);
  }

  function refresh() {
    if (!data) return;
    labelHeader();
    document.querySelectorAll(".tps-mydevice").forEach(renderModelAnswer);
    document.querySelectorAll(".tps-card[data-card]").forEach(renderCardPage);
    var models = document.getElementById("tps-models");
    if (models) markModels(models, 0);
    // The cards index: the reader's own device says so.
    document.querySelectorAll("#tps-cards li").forEach(function (li) {
      var link = li.querySelector("a");
      var mine = !!(device() && link && link.pathname.replace(/\/$/, "").split("/").pop() === device().id);
      var mark = li.querySelector(".tps-yours-mark");
      if (mine && !mark) {
        mark = document.createElement("strong");
        mark.className = "tps-yours-mark";
        mark.textContent = " · " + ui.this_is_yours;
        li.appendChild(mark);
      } else if (!mine && mark) {
        li.removeChild(mark);
      }
    });
    document.querySelectorAll(".tps-device-current").forEach(function (p) {
      var d = device();
      p.hidden = !d;
      p.textContent = d ? fillText(ui.label_value, { label: ui.my_device, value: memoryInName(d) ? d.name : d.name + " · " + f.vram(d.vram_gb) }) : "";
    });
  }

  // ---------------------------------------------------------------- the language switcher

  // The same page in another language keeps its inputs and its place (query string and anchor).
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[hreflang]");
    if (!link || !(window.location.search || window.location.hash)) return;
    var target = new URL(link.getAttribute("href"), window.location.href);
    target.search = window.location.search;
    target.hash = window.location.hash;
    link.href = target.href;
  }, true);

  // ---------------------------------------------------------------- start

  var loading = null;

  // The data file (hundreds of kilobytes of JSON) is read at once only where a device is already
  // chosen; otherwise when the reader first reaches for a picker. Until then the pages show what
  // their HTML holds: the header's button and the pickers, unchanged.
  function ensureData() {
    if (loading) return loading;
    loading = calc.loadData().then(function (loaded) {
      data = loaded;
      data.cards.forEach(function (card) { byId[card.id] = card; });
      document.documentElement.setAttribute("data-tps-device", "ready");
      refresh();
    }).catch(function (error) {
      if (window.console) window.console.warn("TPS Atlas device:", error);
    });
    return loading;
  }

  setUpHeader();
  document.querySelectorAll(".tps-mydevice").forEach(function (box) {
    box.tpsWired = true;
    wirePicker(box);
  });
  document.querySelectorAll(".tps-model").forEach(function (page) {
    page.addEventListener("tps:update", function () {
      if (data) page.querySelectorAll(".tps-mydevice").forEach(renderModelAnswer);
    });
  });
  // A card page redraws its tables when its inputs change: mark the new ones for the same inputs.
  document.querySelectorAll(".tps-card[data-card]").forEach(function (page) {
    page.addEventListener("tps:update", function (event) {
      page.tpsState = event.detail.state;
      if (data) renderCardPage(page, page.tpsState);
    });
  });
  document.querySelectorAll(".tps-device-home").forEach(function (home) {
    if (!home.querySelector(".tps-picker-input")) {
      home.innerHTML = '<p class="tps-device-current" role="status" hidden></p>' + pickerHtml("tps-home-search");
    }
    wirePicker(home);
  });
  if (stored() || pairCard) ensureData();
})();
