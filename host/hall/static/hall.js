// The hall's pages follow the store by themselves: the server pushes the page's new content
// (server-sent events) whenever a board confirms a change or a result comes in. No reload.
(function () {
  var source = document.body.getAttribute("data-events");
  var main = document.getElementById("main");
  if (!source || !window.EventSource || !main) { return; }
  var events = new EventSource(source);
  events.onmessage = function (message) {
    var update = JSON.parse(message.data);
    if (String(update.version) === document.body.getAttribute("data-version")) { return; }
    main.innerHTML = update.main;
    document.body.setAttribute("data-version", String(update.version));
  };
  events.onopen = function () { document.body.classList.remove("offline"); };
  events.onerror = function () { document.body.classList.add("offline"); };
})();
