// autos — the forms' own script (no library, nothing fetched from outside). The pages work without it (the
// choices form is a plain GET, the fields form a plain POST, the findings shown by the server); with it:
//  - a change of the law, the infractions or the penalties fetches the page of the new choices and swaps the
//    fields in, keeping what was typed (the fields appear as they become needed);
//  - each change of a field sends the form to its validation endpoint (JSON) and shows the findings of
//    `autos validar` beside each field and in the summary (#achados-lista), without reloading the page.
"use strict";
(function () {
  var timer = null;

  function form() { return document.getElementById("formulario-processo"); }

  function clear(el) { while (el.firstChild) { el.removeChild(el.firstChild); } }

  function item(f, withCode) {
    var li = document.createElement("li");
    li.className = f.severidade;
    li.setAttribute("data-codigo", f.codigo);
    if (withCode) {
      li.setAttribute("data-campo", f.campo || "");
      var code = document.createElement("span");
      code.className = "codigo";
      code.textContent = f.codigo;
      li.appendChild(code);
      li.appendChild(document.createTextNode(f.citacao ? " " : ": "));
    }
    if (f.citacao && withCode) {
      var art = document.createElement("span");
      art.className = "artigo";
      art.textContent = "(" + f.citacao + ")";
      li.appendChild(art);
      li.appendChild(document.createTextNode(": "));
    }
    li.appendChild(document.createTextNode(f.mensagem));
    if (f.citacao && !withCode) {
      var a2 = document.createElement("span");
      a2.className = "artigo";
      a2.textContent = " (" + f.citacao + ")";
      li.appendChild(a2);
    }
    return li;
  }

  function show(report) {
    var f = form();
    if (!f || !report || !report.achados) { return; }
    var lists = f.querySelectorAll("ul.achados-campo");
    var byName = {};
    for (var i = 0; i < lists.length; i++) { clear(lists[i]); byName[lists[i].getAttribute("data-campo")] = lists[i]; }
    var invalid = f.querySelectorAll("[aria-invalid]");
    for (var j = 0; j < invalid.length; j++) { invalid[j].removeAttribute("aria-invalid"); }
    var summary = document.getElementById("achados-lista");
    if (summary) { clear(summary); }
    var errors = 0;
    report.achados.forEach(function (a) {
      if (a.severidade === "erro") { errors += 1; }
      if (summary) { summary.appendChild(item(a, true)); }
      var list = a.campo ? byName[a.campo] : null;
      if (list) {
        list.appendChild(item(a, false));
        var input = a.id ? document.getElementById(a.id) : null;
        if (input && a.severidade === "erro") { input.setAttribute("aria-invalid", "true"); }
      }
    });
    var state = document.getElementById("achados-situacao");
    if (state) { state.textContent = report.valido ? "nada: o processo está completo" : errors + " erro(s)"; }
  }

  function validate() {
    var f = form();
    if (!f || !window.autos) { return; }
    window.autos.post(f.getAttribute("data-validar"), new FormData(f)).then(show, function () {});
  }

  function later() {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(validate, 300);
  }

  function swapChoices(choices) {
    var url = choices.getAttribute("action") + "?" + new URLSearchParams(new FormData(choices)).toString();
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var typed = {};
      var old = form();
      if (old) {
        var inputs = old.querySelectorAll("input[name], select[name], textarea[name]");
        for (var i = 0; i < inputs.length; i++) {
          if (inputs[i].type !== "hidden" && inputs[i].value) { typed[inputs[i].name] = inputs[i].value; }
        }
      }
      var newChoices = doc.getElementById("escolhas");
      if (newChoices) { choices.parentNode.replaceChild(document.importNode(newChoices, true), choices); }
      hideButton();
      var newForm = doc.getElementById("formulario-processo");
      var anchor = document.getElementById("escolhas");
      if (old) { old.parentNode.removeChild(old); }
      if (newForm && anchor) {
        var node = document.importNode(newForm, true);
        anchor.parentNode.insertBefore(node, anchor.nextSibling);
        Object.keys(typed).forEach(function (name) {
          var el = node.querySelector('[name="' + name.replace(/"/g, "") + '"]');
          if (el && el.type !== "hidden") { el.value = typed[name]; }
        });
        validate();
      }
      if (window.history && window.history.replaceState) { window.history.replaceState(null, "", url); }
    });
  }

  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (!el || !el.closest) { return; }
    var choices = el.closest("#escolhas");
    if (choices && el.hasAttribute("data-escolha")) {
      if (el.id === "escolha-tipo") { choices.submit(); return; }
      swapChoices(choices);
      return;
    }
    if (el.closest("#formulario-processo")) { validate(); }
  });
  document.addEventListener("input", function (ev) {
    var el = ev.target;
    if (el && el.closest && el.closest("#formulario-processo")) { later(); }
  });
  function hideButton() {  // with the script, the fields follow the choices by themselves
    var button = document.getElementById("mostrar-campos");
    if (button && !document.getElementById("escolha-tipo")) { button.hidden = true; }
  }
  hideButton();
})();
