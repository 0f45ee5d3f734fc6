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

// A page whose main area shows nothing once the app is idle for BLANK_MS is drawn again
// (at most MAX_HEALS times a page): under a loaded server, a part's run asked for just
// as a child tapped the menu could leave Streamlit 1.67's new page blank, every part gone
// with it (tests/test_classroom_load.py in CI). Every page of the app shows something.
const BLANK_MS = 1500;
const MAX_HEALS = 3;

function mainIsBlank() {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  if (!main) return false;
  return ![...main.querySelectorAll('[data-testid="stElementContainer"]')]
    .some((el) => el.offsetHeight > 0);
}

// Idle: no run under way and none asked for. "rerunRequested" is not idle: a tap on the
// menu leaves the page in it until the new page's run starts (seconds, on a loaded
// server), and a look sent then asked for a part of the page being left; Streamlit
// then drew the new page blank (tests/test_classroom_load.py, under CI's load).
function appIdle() {
  const app = document.querySelector('[data-testid="stApp"]');
  return !app || app.getAttribute("data-test-script-state") === "notRunning";
}

// The app itself gone from the page: Streamlit 1.67 can throw while it applies a part's
// run to a page that changed under it ("Cannot set a node at a delta path", its issue
// 15084), and React then takes the whole app off the page: a white screen that nothing
// in it can redraw (tests/test_classroom_load.py in CI: no app element, no text). The
// page is loaded again once the app has been gone for GONE_MS: everything a child
// answered is saved already. At most MAX_RELOADS times in RELOAD_WINDOW_MS per tab, so
// an app that cannot be drawn is not loaded over and over.
const WATCH_MS = 500;
const GONE_MS = 2000;
const MAX_RELOADS = 3;
const RELOAD_WINDOW_MS = 10 * 60 * 1000;
const RELOADS_KEY = "escoba_app_reloads";

function recentReloads(now) {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(RELOADS_KEY) || "[]");
    return Array.isArray(kept) ? kept.filter((t) => now - t < RELOAD_WINDOW_MS) : [];
  } catch (err) {
    return [];
  }
}

// Once per window (kept across reruns, and past the app's own end: it is the page's).
function watchTheApp() {
  if (window.__escobaAppWatch) return;
  let goneSince = 0;
  window.__escobaAppWatch = setInterval(() => {
    if (document.querySelector('[data-testid="stApp"]')) { goneSince = 0; return; }
    const now = Date.now();
    goneSince ||= now;
    if (now - goneSince < GONE_MS) return;
    const reloads = recentReloads(now);
    if (reloads.length >= MAX_RELOADS) return;
    try {
      window.sessionStorage.setItem(RELOADS_KEY, JSON.stringify([...reloads, now]));
    } catch (err) {
      return;  // no count kept, no reload: never a loop
    }
    clearInterval(window.__escobaAppWatch);
    console.warn("escoba: the app left the page; loading it again");
    window.location.reload();
  }, WATCH_MS);
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  if (!data) return undefined;
  watchTheApp();
  if (!data.every_ms) return undefined;  // the page's watch alone (ui/ticker.py)
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
    if (appIdle() && mainIsBlank()) {
      T.blankSince ||= now;
      const heals = (T.heals ||= {});
      const page = window.location.pathname;
      if (now - T.blankSince >= BLANK_MS && (heals[page] || 0) < MAX_HEALS &&
          now - T.lastSent >= CHECK_MS) {
        heals[page] = (heals[page] || 0) + 1;
        T.lastSent = now;
        T.blankSince = 0;
        own.sent += 1;
        sayAlone(() => setTriggerValue("blank", own.sent));  // the part's run draws the whole page again
      }
      return;
    }
    T.blankSince = 0;
    if (now < own.due || !appIdle() || now - T.lastInput < QUIET_MS) return;
    if (window.location.pathname !== own.page) return;
    if (now - T.lastSent < CHECK_MS) return;
    T.lastSent = now;
    own.due = now + every;
    own.sent += 1;
    sayAlone(() => setTriggerValue("tick", own.sent));  // never with a tap (say_alone.js)
  }, Math.min(CHECK_MS, every));
  own.timer = timer;
  return () => { if (own.timer === timer) clearInterval(timer); };
}
