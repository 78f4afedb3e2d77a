// "My machine": one to four GPUs of any mix, the system RAM and the OS (issue #28). The reader describes it on
// the machine page (/machine/), it is remembered in this browser and shared as ``?machine=`` (the short form of
// calculator.js parseMachine: ID[,ID…][~RAM_GB[~KIND[~OS]]], e.g.
// ?machine=geforce-rtx-3090,geforce-rtx-3060-12gb~64~ddr4-3200-2ch). Every model page then answers for the whole
// machine (below the "My device" answer), and the machine page ranks every model on it. The verdicts are the
// calculator's machineVerdict (held to tps_atlas/estimate/machine_verdict.py by tests/test_machine_parity.py);
// the words are the page's translated labels (tps_atlas/web/machine_ui.py).
//
// A link is untrusted: a bad one is answered with one plain sentence and the usual view; nothing of it is
// written into the page but through textContent or escapeHtml.
(function () {
  "use strict";

  var calc = window.tpsCalculator;
  var holder = document.getElementById("tps-ui");
  if (!calc || !holder) return;
  var ui = JSON.parse(holder.textContent);
  var L = ui.machine;
  if (!L) return;
  var f = new calc.Formatter(ui.language, ui.units);
  var escapeHtml = calc.escapeHtml;
  var STORAGE_KEY = "tps-atlas-machine";
  var RESULTS = 6;

  function fill(phrase, values) {
    return String(phrase).replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  // Sentences are filled with escaped values; the phrase itself is the site's own text.
  function fillHtml(phrase, values) {
    var escaped = {};
    Object.keys(values).forEach(function (k) { escaped[k] = escapeHtml(values[k]); });
    return fill(escapeHtml(phrase), escaped);
  }

  function stored() {
    try { return window.localStorage.getItem(STORAGE_KEY) || ""; } catch (error) { return ""; }
  }

  function remember(link) {
    try {
      if (link) window.localStorage.setItem(STORAGE_KEY, link);
      else window.localStorage.removeItem(STORAGE_KEY);
    } catch (error) { /* private mode: for this page only */ }
  }

  var linkText = new URLSearchParams(window.location.search).get("machine");
  var data = null, badLink = false;

  // The machine the page answers for: the link's first, then the remembered one; a bad link is said once.
  function current() {
    if (linkText !== null) {
      var fromLink = calc.parseMachine(data, linkText);
      if (fromLink.machine) return fromLink.machine;
      badLink = true;
    }
    var kept = stored();
    var parsed = kept ? calc.parseMachine(data, kept) : { error: "none" };
    return parsed.machine || null;
  }

  // A kind of RAM in a sentence ("… with 64 GB of 2-channel DDR5-6000") and as a drop-down's option
  // ("DDR5-6000, 2 channels"): two catalogue entries, so that each language words each.
  function kindName(kind) {
    return ui.ram_kinds && ui.ram_kinds[kind.id] ? ui.ram_kinds[kind.id] : kind.id;
  }

  function kindLabel(kind) {
    return ui.ram_kind_labels && ui.ram_kind_labels[kind.id] ? ui.ram_kind_labels[kind.id] : kindName(kind);
  }

  function machineName(m) {
    return fill(L.name, { gpus: m.cards.map(function (c) { return c.name; }).join(" + "),
                          ram: f.vram(m.system.size_gb), kind: kindName(m.system.kind) });
  }

  function splitText(e) {
    return e.shares.map(function (s) { return s.card.name + ": " + f.integer(s.layers); }).join(" · ");
  }

  // A measured layer-split run of the same GPUs (in any order), model and quant: the newest.
  function measuredRun(modelId, m, e) {
    if (m.cards.length < 2 || e.fit === "offload" || !data.mixed_measured) return null;
    var key = m.cards.map(function (c) { return c.id; }).sort().join(",");
    var found = null;
    data.mixed_measured.forEach(function (r) {
      if (r.model === modelId && r.quant === e.quant.name && r.cards.slice().sort().join(",") === key &&
          /^https?:\/\//.test(r.source) && (!found || r.date >= found.date)) found = r;
    });
    return found;
  }

  // The answer for one model, as a few sentences and the command (plain values, escaped).
  function answerHtml(modelId, modelName, m) {
    var v = calc.machineVerdict(data, modelId, m, {});
    var name = machineName(m), html;
    if (v.kind === "none") {
      var s = v.shortfall;
      html = "<p>" + fillHtml(v.reason === "memory" ? L.none_memory : L.none_other,
                              { machine: name, model: modelName, quant: s.quant.name, need: f.gb(s.need_gb),
                                usable: f.gb(s.usable_gb) }) + "</p>";
      return { html: html, verdict: v };
    }
    var e = v.estimate;
    var values = { machine: name, model: modelName, quant: e.quant.name, speed: f.tokS(e.tok_s),
                   range: f.tokRange(e.tok_s_low, e.tok_s_high), ram: e.placement ? f.gb(e.placement.ram_gb) : "" };
    html = "<p>" + fillHtml(v.kind === "fits" ? L.fits : L.offload, values) + "</p>";
    if (e.shares && e.shares.length > 1) {
      html += "<p>" + escapeHtml(fill(ui.label_value, { label: L.split, value: splitText(e) })) + "</p>";
    }
    var run = measuredRun(modelId, m, e);
    if (run) {
      html += '<p class="tps-machine-measured">' + fill(escapeHtml(L.measured), {
        speed: escapeHtml(f.tokS(run.tok_s)), date: escapeHtml(run.date.length > 4 ? f.month(run.date) : run.date),
        source: '<a href="' + escapeHtml(run.source) + '" rel="noopener">' + escapeHtml(L.source) + "</a>" }) + "</p>";
    }
    html += "<p>" + escapeHtml(L.command) + '</p><pre><code class="tps-machine-command">' +
      escapeHtml(calc.machineCommand(modelId, e, e.context, null)) + "</code></pre>";
    return { html: html, verdict: v };
  }

  function notice(where) {
    if (!badLink || !where || where.querySelector(".tps-machine-bad")) return;
    var p = document.createElement("p");
    p.className = "tps-machine-bad";
    p.setAttribute("role", "status");
    p.textContent = L.bad_link;
    where.insertAdjacentElement("afterbegin", p);
  }

  function pageHref(m) {
    var home = document.querySelector("a.tps-machine-home");
    var base = home ? home.getAttribute("href") : machinePageHref();
    return base + "?machine=" + encodeURIComponent(calc.machineLink(data, m)).replace(/%2C/g, ",").replace(/%7E/g, "~");
  }

  // The machine page of the page's language, from the site's root (the header's home link).
  function machinePageHref() {
    var root = document.querySelector("a.md-header__button.md-logo");
    var base = root ? root.getAttribute("href") : "/";
    if (base.slice(-1) !== "/") base += "/";
    return base + "machine/";
  }

  // ---------------------------------------------------------------- model pages

  function renderModelPage(page) {
    var mine = page.querySelector(".tps-mydevice");
    var box = page.querySelector(".tps-mymachine");
    var m = current();
    if (!m && !badLink) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("section");
      box.className = "tps-mymachine";
      box.setAttribute("aria-label", L.title);
      if (mine) mine.insertAdjacentElement("afterend", box);
      else page.insertAdjacentElement("afterbegin", box);
    }
    box.innerHTML = "";
    if (m) {
      var modelId = (mine && mine.getAttribute("data-model")) || page.getAttribute("data-model");
      var modelName = (mine && mine.getAttribute("data-name")) || (data.models[modelId] || {}).name || modelId;
      if (!modelId || !data.models[modelId]) return;
      box.innerHTML = "<h2>" + escapeHtml(L.title) + "</h2>" + answerHtml(modelId, modelName, m).html +
        '<p class="tps-answer-actions"><a class="tps-machine-link" href="?machine=' +
        escapeHtml(calc.machineLink(data, m)) + '">' + escapeHtml(L.link) + '</a> · <a class="tps-machine-page-link" href="' +
        escapeHtml(pageHref(m)) + '">' + escapeHtml(L.page) + "</a></p>";
    }
    notice(box);
  }

  // ---------------------------------------------------------------- the machine page

  function slotHtml(i, card) {
    var id = "tps-machine-gpu-" + i;
    var label = '<label class="tps-picker-label" for="' + id + '">' + escapeHtml(fill(L.gpu, { number: i + 1 })) +
      "</label>";
    if (card) {
      return '<p class="tps-machine-slot" data-slot="' + i + '"><span class="tps-machine-chosen">' +
        escapeHtml(fill(ui.label_value, { label: fill(L.gpu, { number: i + 1 }),
                                          value: card.name + " · " + f.vram(card.vram_gb) })) +
        '</span> <button type="button" class="tps-link-button tps-machine-remove">' + escapeHtml(L.remove) +
        "</button></p>";
    }
    return '<div class="tps-machine-slot" data-slot="' + i + '">' + label + '<input type="search" class="tps-picker-input" id="' +
      id + '" autocomplete="off" placeholder="' + escapeHtml(ui.placeholder) + '"><ul class="tps-picker-results"></ul></div>';
  }

  function builderHtml(draft) {
    var limits = data.settings.machine, html = "";
    var slots = draft.cards.length < limits.max_cards ? draft.cards.concat([null]) : draft.cards;
    slots.forEach(function (card, i) { html += slotHtml(i, card); });
    html += '<p><label for="tps-machine-ram">' + escapeHtml(L.ram) + '</label> <input id="tps-machine-ram" type="number" ' +
      'min="1" max="' + limits.max_ram_gb + '" step="1" inputmode="numeric" value="' + escapeHtml(String(draft.ram)) + '"></p>';
    html += '<p><label for="tps-machine-kind">' + escapeHtml(L.ram_kind) + '</label> <select id="tps-machine-kind">' +
      data.ram.kinds.map(function (k) {
        return '<option value="' + escapeHtml(k.id) + '"' + (k.id === draft.kind ? " selected" : "") + ">" +
          escapeHtml(kindLabel(k)) + "</option>";
      }).join("") + "</select></p>";
    html += '<p><label for="tps-machine-os">' + escapeHtml(L.os) + '</label> <select id="tps-machine-os">' +
      limits.os.map(function (o) {
        return '<option value="' + escapeHtml(o.id) + '"' + (o.id === draft.os ? " selected" : "") + ">" +
          escapeHtml((L.os_names && L.os_names[o.id]) || o.name) + "</option>";
      }).join("") + "</select></p>";
    html += '<p><button type="button" class="md-button md-button--primary tps-machine-save"' +
      (draft.cards.length ? "" : " disabled") + ">" + escapeHtml(L.save) + '</button> <button type="button" ' +
      'class="md-button tps-machine-forget"' + (stored() ? "" : " hidden") + ">" + escapeHtml(L.forget) + "</button></p>";
    return html;
  }

  function draftOf(m) {
    return m ? { cards: m.cards.slice(), ram: m.system.size_gb, kind: m.system.kind.id, os: m.os.id }
      : { cards: [], ram: data.ram.default.size_gb, kind: data.ram.default.kind, os: data.settings.machine.default_os };
  }

  function draftLink(draft) {
    return [draft.cards.map(function (c) { return c.id; }).join(","), String(draft.ram), draft.kind, draft.os].join("~");
  }

  function setUpMachinePage(page) {
    var builder = page.querySelector(".tps-machine-builder"), ranking = page.querySelector(".tps-machine-ranking");
    var draft = draftOf(current());
    notice(page);

    function draw() {
      builder.innerHTML = builderHtml(draft);
      builder.querySelectorAll(".tps-picker-input").forEach(function (input) {
        var list = input.parentNode.querySelector(".tps-picker-results");
        input.addEventListener("input", function () {
          var cards = calc.searchCards(data.cards, input.value, RESULTS).filter(function (c) { return !c.unified; });
          list.innerHTML = cards.map(function (c) {
            return '<li><button type="button" class="tps-picker-choice" data-card="' + escapeHtml(c.id) + '"><span class="tps-picker-name">' +
              escapeHtml(c.name) + "</span> <small>" + escapeHtml(c.vendor) + " · " + escapeHtml(f.vram(c.vram_gb)) +
              "</small></button></li>";
          }).join("");
        });
        list.addEventListener("click", function (event) {
          var button = event.target.closest("button[data-card]");
          if (!button) return;
          var chosen = null;
          data.cards.forEach(function (c) { if (c.id === button.getAttribute("data-card")) chosen = c; });
          if (chosen) draft.cards.push(chosen);
          keepInputs();
          draw();
          var next = builder.querySelector(".tps-picker-input");
          if (next) next.focus();
        });
      });
      builder.querySelectorAll(".tps-machine-remove").forEach(function (button) {
        button.addEventListener("click", function () {
          keepInputs();
          draft.cards.splice(Number(button.closest("[data-slot]").getAttribute("data-slot")), 1);
          draw();
        });
      });
      builder.querySelector(".tps-machine-save").addEventListener("click", function () {
        keepInputs();
        var parsed = calc.parseMachine(data, draftLink(draft));
        if (!parsed.machine) { badLink = true; notice(page); return; }
        var link = calc.machineLink(data, parsed.machine);
        remember(link);
        linkText = link;
        badLink = false;
        window.history.replaceState(null, "", "?machine=" + link);
        draw();
        rank(parsed.machine);
      });
      builder.querySelector(".tps-machine-forget").addEventListener("click", function () {
        remember("");
        linkText = null;
        window.history.replaceState(null, "", window.location.pathname);
        draft = draftOf(null);
        draw();
        rank(null);
      });
    }

    function keepInputs() {
      var ram = Number(builder.querySelector("#tps-machine-ram").value);
      if (ram > 0 && ram <= data.settings.machine.max_ram_gb) draft.ram = Math.round(ram * 100) / 100;
      draft.kind = builder.querySelector("#tps-machine-kind").value;
      draft.os = builder.querySelector("#tps-machine-os").value;
    }

    function rank(m) {
      if (!m) { ranking.innerHTML = "<p>" + escapeHtml(L.empty) + "</p>"; return; }
      var groups = { fits: [], offload: [], none: [] };
      Object.keys(data.models).forEach(function (id) {
        var v = calc.machineVerdict(data, id, m, {});
        groups[v.kind].push({ id: id, name: data.models[id].name || id, v: v });
      });
      var bySpeed = function (a, b) { return b.v.estimate.tok_s - a.v.estimate.tok_s || (a.name < b.name ? -1 : 1); };
      groups.fits.sort(bySpeed);
      groups.offload.sort(bySpeed);
      groups.none.sort(function (a, b) { return a.v.shortfall.need_gb - b.v.shortfall.need_gb || (a.name < b.name ? -1 : 1); });
      var html = "<h2>" + escapeHtml(fill(ui.label_value, { label: L.title, value: machineName(m) })) + "</h2>";
      [["fits", L.runs], ["offload", L.partly], ["none", L.no]].forEach(function (pair) {
        var rows = groups[pair[0]];
        if (!rows.length) return;
        html += '<h3 id="tps-machine-' + pair[0] + '">' + escapeHtml(pair[1]) + " (" + f.integer(rows.length) + ")</h3>";
        html += '<table class="tps-table tps-machine-table" data-kind="' + pair[0] + '"><thead><tr><th scope="col">' +
          escapeHtml(L.model) + "</th>" + (pair[0] === "none" ? "" : '<th scope="col">' + escapeHtml(L.speed) +
          '</th><th scope="col">' + escapeHtml(L.quant) + '</th><th scope="col">' + escapeHtml(L.fit) +
          '</th><th scope="col">' + escapeHtml(L.command) + "</th>") + "</tr></thead><tbody>";
        rows.forEach(function (r) {
          html += '<tr data-model="' + escapeHtml(r.id) + '"><td><a href="../models/' + escapeHtml(r.id) + "/?machine=" +
            escapeHtml(calc.machineLink(data, m)) + '">' + escapeHtml(r.name) + "</a></td>";
          if (pair[0] !== "none") {
            var e = r.v.estimate;
            html += "<td>" + escapeHtml(f.tokS(e.tok_s)) + "</td><td>" + escapeHtml(e.quant.name) + "</td><td>" +
              escapeHtml((ui.fit && ui.fit[e.fit]) || e.fit) + "</td><td><code>" +
              escapeHtml(calc.machineCommand(r.id, e, e.context, null)) + "</code></td>";
          }
          html += "</tr>";
        });
        html += "</tbody></table>";
      });
      ranking.innerHTML = html;
      if (calc.labelColumns) ranking.querySelectorAll("table").forEach(calc.labelColumns);
    }

    draw();
    rank(current());
  }

  // ---------------------------------------------------------------- the picker's way here

  function linkFromPanel() {
    var panel = document.getElementById("tps-device-panel");
    if (!panel || panel.querySelector(".tps-machine-open")) return;
    var p = document.createElement("p");
    p.className = "tps-machine-open";
    p.innerHTML = '<a class="tps-machine-home" href="' + escapeHtml(machinePageHref()) + '">' + escapeHtml(L.open) + "</a>";
    panel.appendChild(p);
  }

  // ---------------------------------------------------------------- start

  function start() {
    calc.loadData().then(function (loaded) {
      data = loaded;
      if (!data.settings.machine) return;
      document.querySelectorAll(".tps-machine-page").forEach(setUpMachinePage);
      document.querySelectorAll(".tps-model").forEach(function (page) {
        renderModelPage(page);
        page.addEventListener("tps:update", function () { renderModelPage(page); });
      });
      document.documentElement.setAttribute("data-tps-machine", "ready");
    }).catch(function (error) {
      if (window.console) window.console.warn("TPS Atlas machine:", error);
    });
  }

  // The device panel is made when first opened (device.js): add the way to the machine page then.
  document.addEventListener("click", function () { window.setTimeout(linkFromPanel, 0); });
  if (linkText !== null || stored() || document.querySelector(".tps-machine-page")) start();
})();
