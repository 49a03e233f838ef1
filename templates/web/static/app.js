// autos — the web application's own script (no library, nothing fetched from outside).
// Every page works without it; it only adds conveniences:
//  - autos.csrf(): the page's CSRF token (for fetch() calls, sent as the header X-CSRF-Token);
//  - autos.post(url, data): a POST with the token, answering the parsed JSON or the text;
//  - a form with data-confirmar="…" asks before it is sent (deactivating an account…);
//  - a select of a filter form with data-enviar-ao-mudar sends the form when changed.
"use strict";
(function () {
  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function post(url, data) {
    var body = data instanceof FormData ? data : new URLSearchParams(data || {});
    return fetch(url, {method: "POST", body: body, credentials: "same-origin",
                       headers: {"X-CSRF-Token": csrf()}}).then(function (r) {
      var type = r.headers.get("Content-Type") || "";
      return type.indexOf("application/json") >= 0 ? r.json() : r.text();
    });
  }
  window.autos = {csrf: csrf, post: post};
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    var question = form.getAttribute && form.getAttribute("data-confirmar");
    if (question && !window.confirm(question)) { ev.preventDefault(); }
  });
  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (el && el.hasAttribute && el.hasAttribute("data-enviar-ao-mudar") && el.form) { el.form.submit(); }
  });
})();
