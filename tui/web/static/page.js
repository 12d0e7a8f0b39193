// Freight's page, after textual.js: downloads a popup blocker lets through, the terminal
// measured once its font has loaded, the websocket at this page's own address.
(function () {
  "use strict";

  // textual.js hands each download to window.open(url, "_blank"): a popup, which a popup
  // blocker lets through once per key press at best. A link with `download` is not a popup.
  const nativeOpen = window.open.bind(window);
  window.open = function (url, target, features) {
    const address = new URL(String(url), window.location.href);
    if (address.origin === window.location.origin && address.pathname.startsWith("/download/")) {
      const link = document.createElement("a");
      link.href = address.href;
      link.download = "";
      link.rel = "noopener";
      document.body.appendChild(link);
      link.click();
      link.remove();
      return null;
    }
    return nativeOpen(url, target, features);
  };

  // An order file brought in from this computer: the button, or a file dropped on the page.
  // It lands in the workspace folder (the only one the app opens here), under a new name.
  function say(text) {
    const note = document.getElementById("freight-note");
    if (note) {
      note.textContent = text;
    }
  }

  function upload(file) {
    const form = new FormData();
    form.append("file", file, file.name);
    return fetch("/upload", { method: "POST", body: form, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) {
          return response.text().then(function (text) {
            say("Not uploaded: " + text);
          });
        }
        return response.json().then(function (saved) {
          say("Uploaded " + saved.name + " to " + saved.folder + ". Open it on the Batch screen.");
        });
      })
      .catch(function () {
        say("Not uploaded: the server did not answer.");
      });
  }

  function uploadAll(files) {
    Array.prototype.forEach.call(files || [], upload);
  }

  document.addEventListener("DOMContentLoaded", function () {
    const field = document.getElementById("freight-upload");
    if (field) {
      field.addEventListener("change", function () {
        uploadAll(field.files);
        field.value = "";
      });
    }
  });
  document.addEventListener("dragover", function (event) {
    event.preventDefault();
    document.body.classList.add("-dragging");
  });
  document.addEventListener("dragleave", function () {
    document.body.classList.remove("-dragging");
  });
  document.addEventListener("drop", function (event) {
    event.preventDefault();
    document.body.classList.remove("-dragging");
    uploadAll(event.dataTransfer && event.dataTransfer.files);
  });

  // textual.js measures the terminal (its rows and columns) and connects on load: wait for
  // the font first, or the rows are counted in the fallback font and the last ones fall off.
  const start = window.onload;
  window.onload = null;
  window.addEventListener("load", function (event) {
    const terminal = document.getElementById("terminal");
    if (terminal && !terminal.dataset.sessionWebsocketUrl) {
      const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      terminal.dataset.sessionWebsocketUrl = scheme + window.location.host + "/ws";
    }
    const size = (terminal && terminal.dataset.fontSize) || "16";
    Promise.all([
      document.fonts.load(size + 'px "Roboto Mono"'),
      document.fonts.load("bold " + size + 'px "Roboto Mono"'),
    ])
      .catch(function () {
        return undefined;
      })
      .then(function () {
        return document.fonts.ready;
      })
      .then(function () {
        document.body.classList.add("-font-ready");
        if (typeof start === "function") {
          start.call(window, event);
        }
      });
  });
})();
