// imgaudit's HTML report: the findings' filters (severity, rule, a path or word), which a link can set
// (report.html?severity=error,warning&rule=ID&search=WORDS), and every block opened to print.
"use strict";
var query = new URLSearchParams(window.location.search);
function setFromQuery(form) {
  if (query.has("severity")) {
    var wanted = query.get("severity").split(",");
    form.querySelectorAll("input[name=severity]").forEach(function (box) { box.checked = wanted.indexOf(box.value) >= 0; });
  }
  if (query.has("rule")) form.querySelector("select[name=rule]").value = query.get("rule");
  if (query.has("search")) form.querySelector("input[name=search]").value = query.get("search");
}
document.querySelectorAll("form.filters").forEach(function (form) {
  var section = form.closest("section.image");
  var blocks = section.querySelectorAll("details.block");
  var status = form.querySelector("output");
  function matches(element, words) {
    return element.textContent.toLowerCase().indexOf(words) >= 0;
  }
  function apply() {
    var severities = {};
    form.querySelectorAll("input[name=severity]").forEach(function (box) { severities[box.value] = box.checked; });
    var rule = form.querySelector("select[name=rule]").value;
    var words = form.querySelector("input[name=search]").value.trim().toLowerCase();
    var shown = 0;
    blocks.forEach(function (block) {
      var wanted = severities[block.dataset.severity] && (rule === "" || block.dataset.rule === rule);
      var found = words === "" || matches(block.querySelector("summary"), words);
      block.querySelectorAll(".finding").forEach(function (finding) {
        var hit = words === "" || found || matches(finding, words);
        finding.hidden = !hit;
        if (hit) found = true;
      });
      block.hidden = !(wanted && found);
      if (!block.hidden) {
        shown += 1;
        if (words !== "") block.open = true;
      }
    });
    status.textContent = shown + " of " + blocks.length + " shown";
  }
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  setFromQuery(form);
  apply();
});
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
});
document.body.dataset.ready = "true";
