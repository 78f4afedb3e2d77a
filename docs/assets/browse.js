// Browse pages: filter lists and tables as you type, sort tables by a column.
// Pages read fully without this script; it only narrows and reorders what is there.
(function () {
  "use strict";

  function rowsOf(target) {
    return target.tagName === "TABLE"
      ? Array.from(target.tBodies[0].rows)
      : Array.from(target.querySelectorAll("li"));
  }

  function setUpFilter(input) {
    var target = document.getElementById(input.dataset.target);
    if (!target) return;
    var query = new URLSearchParams(window.location.search).get("q");
    if (query) input.value = query;
    function apply() {
      var words = input.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
      rowsOf(target).forEach(function (row) {
        // data-search: the names a card is also sold under ("RTX 4070 Laptop")
        var text = (row.textContent + " " + (row.dataset.search || "")).toLocaleLowerCase();
        row.hidden = !words.every(function (word) { return text.indexOf(word) >= 0; });
      });
    }
    input.addEventListener("input", apply);
    apply();
  }

  function setUpSorting(table) {
    Array.from(table.tHead.rows[0].cells).forEach(function (header, column) {
      header.style.cursor = "pointer";
      header.setAttribute("aria-sort", "none");
      header.addEventListener("click", function () {
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
        Array.from(table.tHead.rows[0].cells).forEach(function (cell) { cell.setAttribute("aria-sort", "none"); });
        header.setAttribute("aria-sort", descending ? "descending" : "ascending");
      });
    });
  }

  document.querySelectorAll("input.tps-filter").forEach(setUpFilter);
  document.querySelectorAll("table.tps-sortable").forEach(setUpSorting);
})();
