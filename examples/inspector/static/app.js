// The inspector's page works without this script; it re-runs the question
// when a control changes, shows an index build's progress while the next
// page loads, and streams the model's answer.
"use strict";
(function () {
  var form = document.getElementById("controls");
  var status = document.getElementById("status");
  var polling = null;

  // In a narrow window the settings start folded, so that the results
  // are not a screen away.
  var settings = document.getElementById("settings");
  if (settings && window.matchMedia("(max-width: 48rem)").matches && document.getElementById("results").querySelector("section")) {
    settings.open = false;
  }

  function poll() {
    fetch("/progress").then(function (r) { return r.json(); }).then(function (p) {
      if (p.building) {
        status.textContent = "Indexing: " + p.documents + " of " + p.total + " documents, " + p.embedded + " chunks embedded…";
      }
    }).catch(function () {});
  }

  form.addEventListener("submit", function () {
    status.textContent = "Working…";
    if (!polling) { polling = setInterval(poll, 300); }
  });

  // A changed control re-runs the question; the question box itself waits
  // for Enter or the Ask button.
  form.addEventListener("change", function (e) {
    if (e.target.id === "q") { return; }
    if (e.target.type === "number" && !e.target.checkValidity()) {
      status.textContent = e.target.labels[0].textContent + ": " + e.target.validationMessage;
      return;
    }
    form.requestSubmit(document.getElementById("apply"));
  });

  var answer = document.getElementById("answer");
  if (answer && answer.dataset.src) {
    fetch(answer.dataset.src).then(function (r) {
      answer.textContent = "";
      var reader = r.body.getReader();
      var dec = new TextDecoder();
      function read() {
        return reader.read().then(function (c) {
          if (c.done) { answer.setAttribute("aria-busy", "false"); return; }
          answer.textContent += dec.decode(c.value, { stream: true });
          return read();
        });
      }
      return read();
    }).catch(function (err) {
      answer.textContent = "The answer could not be fetched: " + err;
      answer.setAttribute("aria-busy", "false");
    });
  }
})();
