// A part of the page that looks again by itself (ui/ticker.py): its timer, in the page.
// Streamlit's own fragment timer (run_every) sends its rerun whatever the page is doing;
// landing while a child's tap was being answered, Streamlit 1.67 could lose the tap's
// answer on the screen (the next question or board never drawn, though the server had
// answered). This timer asks only when the app has no run under way and nobody has
// touched the page for QUIET_MS: a tap's answer is never overtaken by a look.
const QUIET_MS = 1500;
const CHECK_MS = 250;
// lastSent: when any part of the page last asked; two parts whose beats meet do not ask in
// the same instant (the second waits until the first's run is over).
const T = (window.__escobaTicker ||= { lastInput: -Infinity, lastSent: -Infinity,
  listening: false });

function noteInput() { T.lastInput = performance.now(); }

// Idle: no run under way and none asked for. "rerunRequested" is not idle: a tap on the
// menu leaves the page in it until the new page's run starts (seconds, on a loaded
// server), and a look sent then asked for a part of the page being left; Streamlit
// then drew the new page blank (tests/test_classroom_load.py, under CI's load).
function appIdle() {
  const app = document.querySelector('[data-testid="stApp"]');
  return !app || app.getAttribute("data-test-script-state") === "notRunning";
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  if (!data) return undefined;
  if (!T.listening) {  // one set of listeners for the document, kept across reruns
    for (const kind of ["pointerdown", "keydown", "click"]) {
      document.addEventListener(kind, noteInput, true);
    }
    T.listening = true;
  }
  const every = Math.max(100, Number(data.every_ms) || 1000);
  const own = (parentElement.__escobaTick ||= { timer: null, due: 0, sent: 0 });
  // The page this part was drawn on: once the address names another, it is being left.
  own.page = window.location.pathname;
  // Drawn again (the part's run): its next look a whole period from now, as Streamlit's.
  own.due = performance.now() + every;
  clearInterval(own.timer);
  const timer = setInterval(() => {
    const host = parentElement.host || parentElement;
    if (!host.isConnected) { clearInterval(timer); return; }
    const now = performance.now();
    if (now < own.due || !appIdle() || now - T.lastInput < QUIET_MS) return;
    if (window.location.pathname !== own.page) return;
    if (now - T.lastSent < CHECK_MS) return;
    T.lastSent = now;
    own.due = now + every;
    own.sent += 1;
    setTriggerValue("tick", own.sent);
  }, Math.min(CHECK_MS, every));
  own.timer = timer;
  return () => { if (own.timer === timer) clearInterval(timer); };
}
