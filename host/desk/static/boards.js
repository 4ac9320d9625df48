// The boards page: each board's "N s ago" counted on from the time of its last answer
// (data-at, ms) every second, between the pushes of the page (its <main> is replaced by
// desk.js; this looks the elements up again each time). The words come from the page.
(function () {
  var me = document.currentScript;
  var words = (me && me.getAttribute("data-ago")) || "({n} s ago)";
  setInterval(function () {
    var now = Date.now();
    var shown = document.querySelectorAll(".ago[data-at]");
    for (var i = 0; i < shown.length; i++) {
      var at = Number(shown[i].getAttribute("data-at"));
      if (at) { shown[i].textContent = words.replace("{n}", String(Math.max(0, Math.round((now - at) / 1000)))); }
    }
  }, 1000);
})();
