// The night's screen follows the store by itself, as the hall's pages do (server-sent events
// of the "desk" stream). An update waits while the director is choosing in one of its forms
// (a table being picked, a button pressed), and is put in when the choice is made or left.
(function () {
  var source = document.body.getAttribute("data-events");
  var main = document.getElementById("main");
  if (!source || !window.EventSource || !main) { return; }
  var waiting = null;
  function busy() {
    var active = document.activeElement;
    return active && main.contains(active) && /^(SELECT|INPUT|BUTTON)$/.test(active.tagName);
  }
  function put(update) {
    if (String(update.version) === document.body.getAttribute("data-version")) { return; }
    main.innerHTML = update.main;
    document.body.setAttribute("data-version", String(update.version));
  }
  main.addEventListener("focusout", function () {
    setTimeout(function () {
      if (waiting && !busy()) { var update = waiting; waiting = null; put(update); }
    }, 0);
  });
  var events = new EventSource(source);
  events.onmessage = function (message) {
    var update = JSON.parse(message.data);
    if (busy()) { waiting = update; return; }
    put(update);
  };
  events.onopen = function () { document.body.classList.remove("offline"); };
  events.onerror = function () { document.body.classList.add("offline"); };
})();
