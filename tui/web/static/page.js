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
