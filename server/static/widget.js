/* Genie chat widget: embed an agent in any page with one tag,
     <script src="https://agent.example.com/widget.js" async></script>
   It adds a "Chat" button that opens the agent's /chat page in a panel (an iframe from
   the agent's own origin, so no CORS setup is needed). No external resources. */
(function () {
  "use strict";
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src).origin : window.location.origin;
  var label = (script && script.getAttribute("data-label")) || "Chat";
  function init() {
    if (document.getElementById("genie-widget-button")) { return; }
    var button = document.createElement("button");
    button.id = "genie-widget-button";
    button.type = "button";
    button.textContent = label;
    button.setAttribute("aria-expanded", "false");
    button.setAttribute("aria-controls", "genie-widget-panel");
    button.style.cssText = "position:fixed;right:20px;bottom:20px;z-index:2147483000;padding:.7rem 1.2rem;" +
      "border:0;border-radius:24px;background:#1f4e79;color:#fff;font:600 15px system-ui,sans-serif;cursor:pointer;" +
      "box-shadow:0 2px 8px rgba(0,0,0,.3)";
    var panel = document.createElement("iframe");
    panel.id = "genie-widget-panel";
    panel.title = "Chat with the agent";
    panel.hidden = true;
    panel.style.cssText = "position:fixed;right:20px;bottom:76px;z-index:2147483000;width:min(380px,calc(100vw - 40px));" +
      "height:min(560px,calc(100vh - 100px));border:1px solid #ccd;border-radius:10px;background:#fff;" +
      "box-shadow:0 4px 16px rgba(0,0,0,.3)";
    button.addEventListener("click", function () {
      if (!panel.src) { panel.src = origin + "/chat"; }
      panel.hidden = !panel.hidden;
      button.setAttribute("aria-expanded", String(!panel.hidden));
    });
    document.body.appendChild(panel);
    document.body.appendChild(button);
  }
  if (document.body) { init(); } else { document.addEventListener("DOMContentLoaded", init); }
})();
