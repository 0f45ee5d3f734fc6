// A word a component says by itself, not in answer to a tap on it: a timer's look
// (ticker.js), "I drew" (the board's and the quick round's ready), a lesson level's
// "next" after its praise. Streamlit 1.67 sends every widget update made before its next
// task turn as ONE rerun, for the part of the page the first of them names
// (WidgetStateManager.scheduleFlush: a setTimeout(0), then "Multiple different
// fragmentIds detected in a single batch"). A child's tap landing in that gap went out
// with the word: the server ran the tap's callback (the answer saved, the next puzzle
// made) but ran again only the part that spoke, so the tapped part kept the old screen
// (tests/test_classroom_load.py in CI: "Next puzzle" tapped, no new board; reproduced
// with the notice's look every 0.3 s: its tick and the tap in one rerun). The other way
// round, a word said just after a tap went with the tap's rerun, and its own part was not
// drawn again (a board's "I drew": its fallback choosers stayed on the page).
//
// So a word waits until the page is idle and no click came for CLICK_SETTLE_MS (a
// click's rerun has shown itself by then), and a click that comes while a word waits to
// leave is held and clicked again on the same spot just after the word has left: it then
// goes as a rerun of its own part. Two parts' runs asked for back to back can still cost
// the first its drawing in Streamlit 1.67 (stop 48; a look's is drawn again at the next
// look); a word never asks right behind a tap.
// Shared by every component's copy of this file (each component's script is its own module).
const SAY_ALONE = (window.__escobaSayAlone ||= { waiting: 0, held: [], listening: false });
SAY_ALONE.again ||= new WeakSet();  // our own clicks again: never held
SAY_ALONE.lastClick ||= -Infinity;
const CLICK_SETTLE_MS = 300;
const WORD_WAIT_MS = 5000;  // said anyway after this: an app that never settles
const WORD_CHECK_MS = 50;

// Idle: no run under way and none asked for. "rerunRequested" is not idle: a tap on the
// menu leaves the page in it until the new page's run starts (seconds, on a loaded
// server), and a look sent then asked for a part of the page being left; Streamlit
// then drew the new page blank (tests/test_classroom_load.py, under CI's load).
function appIdle() {
  const app = document.querySelector('[data-testid="stApp"]');
  return !app || app.getAttribute("data-test-script-state") === "notRunning";
}

function holdClick(event) {
  const target = event.composedPath()[0];
  if (SAY_ALONE.waiting && !SAY_ALONE.again.has(event) && target instanceof Element) {
    event.stopImmediatePropagation();
    event.preventDefault();
    SAY_ALONE.held.push({ target, x: event.clientX, y: event.clientY, detail: event.detail });
    return;
  }
  SAY_ALONE.lastClick = performance.now();  // a word waits for this click's run
}

if (!SAY_ALONE.listening) {  // one listener for the window, before every other one, from
  // the first component's load (a click before any word counts too)
  window.addEventListener("click", holdClick, true);
  SAY_ALONE.listening = true;
}

function clickAgain({ target, x, y, detail }) {
  if (!target.isConnected) return;  // its part was drawn again meanwhile: nothing to tap
  const click = new MouseEvent("click", { bubbles: true, cancelable: true, composed: true,
    view: window, clientX: x, clientY: y, detail });
  SAY_ALONE.again.add(click);
  target.dispatchEvent(click);
}

// A component's element is on the page as the last run drew it (not left behind by a
// page change, not waiting to be drawn again).
function onThePage(parentElement) {
  const node = parentElement.host || parentElement;
  return node.isConnected && !node.closest('[data-stale="true"]');
}

// `say` calls the component's setTriggerValue or setStateValue: once the page is idle
// and settled after the last click; a click before Streamlit's send (queued first, so
// it runs first) waits for it.
function sayAlone(say, since = performance.now()) {
  const now = performance.now();
  const settled = appIdle() && now - SAY_ALONE.lastClick >= CLICK_SETTLE_MS;
  if (!settled && now - since < WORD_WAIT_MS) {
    setTimeout(() => sayAlone(say, since), WORD_CHECK_MS);
    return;
  }
  SAY_ALONE.waiting += 1;
  try {
    say();
  } finally {
    setTimeout(() => {
      SAY_ALONE.waiting -= 1;
      if (SAY_ALONE.waiting) return;
      for (const click of SAY_ALONE.held.splice(0)) clickAgain(click);
    }, 0);
  }
}
