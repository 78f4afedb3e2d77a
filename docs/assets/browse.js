// Browse pages: filter lists and tables as you type, sort tables by a column.
// Pages read fully without this script; it only narrows and reorders what is there.
(function () {
  "use strict";

  var holder = document.getElementById("tps-ui");
  var ui = holder ? JSON.parse(holder.textContent) : {};

  function rowsOf(target) {
    return target.tagName === "TABLE"
      ? Array.from(target.tBodies[0].rows)
      : Array.from(target.querySelectorAll("li"));
  }

  // A heading (vendor, memory size) stays only while something under it is shown.
  function hideEmptyHeadings(target) {
    Array.from(target.querySelectorAll("ul")).forEach(function (list) {
      var shown = Array.from(list.children).some(function (li) { return !li.hidden; });
      list.hidden = !shown;
      var heading = list.previousElementSibling;
      if (heading && /^H[2-6]$/.test(heading.tagName)) heading.hidden = !shown;
    });
    Array.from(target.querySelectorAll("h2")).forEach(function (h2) {
      var next = h2.nextElementSibling, shown = false;
      while (next && next.tagName !== "H2") {
        if (next.tagName === "UL" && !next.hidden) shown = true;
        next = next.nextElementSibling;
      }
      h2.hidden = !shown;
    });
  }

  function setUpFilter(input) {
    var target = document.getElementById(input.dataset.target);
    if (!target) return;
    // "?filter=" (the page head's script renames Material's "?q=", which would open its search).
    var params = new URLSearchParams(window.location.search);
    var query = params.get("filter") || params.get("q");
    if (query) input.value = query;
    var empty = document.createElement("p");
    empty.className = "tps-empty";
    empty.setAttribute("role", "status");
    empty.hidden = true;
    target.insertAdjacentElement("beforebegin", empty);
    var phrase = target.tagName === "TABLE" ? ui.no_model : ui.no_card;
    function apply() {
      var words = input.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rowsOf(target).forEach(function (row) {
        // data-search: the names a card is also sold under ("RTX 4070 Laptop")
        var text = (row.textContent + " " + (row.dataset.search || "")).toLocaleLowerCase();
        row.hidden = !words.every(function (word) { return text.indexOf(word) >= 0; });
        if (!row.hidden) shown++;
      });
      if (target.tagName !== "TABLE") hideEmptyHeadings(target);
      if (target.tagName === "TABLE") target.hidden = !shown;
      empty.hidden = shown > 0 || !phrase;
      empty.textContent = shown ? "" : String(phrase || "").replace("{query}", input.value.trim());
    }
    input.addEventListener("input", apply);
    apply();
  }

  function setUpSorting(table) {
    Array.from(table.tHead.rows[0].cells).forEach(function (header, column) {
      // A real button in each heading: reachable by keyboard, announced with the column's sort order.
      var button = document.createElement("button");
      button.type = "button";
      button.className = "tps-sort";
      while (header.firstChild) button.appendChild(header.firstChild);
      header.appendChild(button);
      header.setAttribute("aria-sort", "none");
      button.addEventListener("click", function () {
        var descending = header.getAttribute("aria-sort") === "ascending";
        var numeric = header.dataset.sort === "number";
        var rows = Array.from(table.tBodies[0].rows);
        rows.sort(function (a, b) {
          var x = a.cells[column], y = b.cells[column];
          var p = x.dataset.value !== undefined ? x.dataset.value : x.textContent;
          var q = y.dataset.value !== undefined ? y.dataset.value : y.textContent;
          var order = numeric ? parseFloat(p) - parseFloat(q) : p.localeCompare(q, document.documentElement.lang);
          return descending ? -order : order;
        });
        rows.forEach(function (row) { table.tBodies[0].appendChild(row); });
        Array.from(table.tHead.rows[0].cells).forEach(function (cell) {
          if (cell.hasAttribute("aria-sort")) cell.setAttribute("aria-sort", "none");
        });
        header.setAttribute("aria-sort", descending ? "descending" : "ascending");
      });
    });
  }

  document.querySelectorAll("input.tps-filter").forEach(setUpFilter);
  if (window.tpsCalculator) document.querySelectorAll("table.tps-table").forEach(window.tpsCalculator.labelColumns);
  document.querySelectorAll("table.tps-sortable").forEach(setUpSorting);
})();
