// A part of the page that looks again by itself (ui/ticker.py): its timer, in the page.
// Streamlit's own fragment timer (run_every) sends its rerun whatever the page is doing;
// landing while a child's tap was being answered, Streamlit 1.67 could lose the tap's
// answer on the screen (the next question or board never drawn, though the server had
// answered). This timer asks only when the app has no run under way and nobody has
// touched the page for QUIET_MS: a tap's answer is never overtaken by a look.
const QUIET_MS = 1500;
const CHECK_MS = 250;
// A look that started no run of its part within LOST_MS (the page idle all along): the
// server no longer knows this page's parts (a new server session: the server restarted,
// or the tablet slept past the session's lifetime, or another replica answers). Only a
// whole new page helps then; Streamlit's own timer used to get one at the reconnection.
const LOST_MS = 6000;
// lastSent: when any part of the page last asked; two parts whose beats meet do not ask in
// the same instant (the second waits until the first's run is over).
const T = (window.__escobaTicker ||= { lastInput: -Infinity, lastSent: -Infinity,
  listening: false, reloading: false });

function noteInput() { T.lastInput = performance.now(); }

function appIdle() {
  const app = document.querySelector('[data-testid="stApp"]');
  return !app || app.getAttribute("data-test-script-state") !== "running";
}

// The part's fence (ui/errors.py draws each part in a container of its own) takes no room
// while the timer is all it holds: its flex gap would otherwise push the page down.
function fitFence(host) {
  const element = host.closest('[data-testid="stElementContainer"]');
  const block = element && element.parentElement;
  if (!block) return;
  const fence = block.closest('[data-testid="stLayoutWrapper"]') || block;
  // Anything else drawn in the part, even not yet grown to its height (a board still
  // drawing), keeps the fence: only a part with nothing but its timer is taken out.
  const alone = ![...block.children].some((child) => child !== element
    && getComputedStyle(child).display !== "none");
  fence.style.display = alone ? "none" : "";
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
  const host = parentElement.host || parentElement;
  const every = Math.max(100, Number(data.every_ms) || 1000);
  const own = (parentElement.__escobaTick ||= { timer: null, due: 0, sent: 0, sentAt: null,
    run: null });
  // A run of the part drew it (data.run moves at each): its look, if one was asked, came.
  if (data.run !== own.run) {
    own.run = data.run;
    own.sentAt = null;
  }
  // Its next look a whole period from now, as Streamlit's (on the checks' grid: half a
  // check early rather than a whole check late).
  own.due = performance.now() + every - CHECK_MS / 2;
  requestAnimationFrame(() => fitFence(host));
  clearInterval(own.timer);
  const timer = setInterval(() => {
    if (!host.isConnected) { clearInterval(timer); return; }
    const now = performance.now();
    if (!appIdle() || now - T.lastInput < QUIET_MS) return;
    if (own.sentAt !== null && now - own.sentAt > LOST_MS && !T.reloading) {
      // Reloaded only once the server answers (not onto an error page while it is down).
      T.reloading = true;
      own.sentAt = now;
      fetch(new URL("_stcore/health", window.location.href), { cache: "no-store" })
        .then((answer) => { if (answer.ok) window.location.reload(); else T.reloading = false; })
        .catch(() => { T.reloading = false; });
      return;
    }
    if (now < own.due || now - T.lastSent < CHECK_MS) return;
    T.lastSent = now;
    own.due = now + every - CHECK_MS / 2;
    own.sent += 1;
    if (own.sentAt === null) own.sentAt = now;
    setTriggerValue("tick", own.sent);
  }, Math.min(CHECK_MS, every));
  own.timer = timer;
  return () => { if (own.timer === timer) clearInterval(timer); };
}
