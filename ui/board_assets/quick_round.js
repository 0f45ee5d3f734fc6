// Quick facts' round, drawn and tapped in the page (issue 32; ui/quick_round_view.py).
// Loaded after voice.js (speaker buttons, the page's one voice state).
//
// Python sends what the screen shows (the words already translated, the cards already
// drawn as HTML by trainer.cards): the answer's feedback, then the question and the
// number pad, or the round's end. A tapped number is marked at once and sent as the
// ``answer`` trigger with the question it answers ({round, index, value}): Python judges
// and records it, and its run draws only this element again. A second tap before that
// answer comes back is not sent (the pad waits), and a tap meant for a question already
// answered is refused by Python (the index no longer matches). Nothing is judged here:
// the answer that comes back is heard as well as seen (qfCue).

const QF_STATE = new WeakMap();
// A number tapped this soon after the last one is that tap's double, not an answer: no
// one sees the next question and answers it this fast. (Counted from a new question's
// drawing, 250 ms let a third of a child's double taps, 300-350 ms apart, answer the
// next question, one she never saw; found trying it as a child.)
const DOUBLE_TAP_MS = 500;
const BUSY_MS = 8000;

function qfEl(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

// A 🔊 slot: filled while the sound is on and the device has a voice for the language.
function qfSpeakSlot(text) {
  const slot = qfEl("span", "qf-speak-slot");
  slot.dataset.say = text;
  return slot;
}

function qfSpeakers(root) {
  const data = QF_STATE.get(root)?.data;
  if (!data) return;
  const on = VOICE.sound && voiceHas(data.lang) === "yes";
  for (const slot of root.querySelectorAll(".qf-speak-slot")) {
    slot.replaceChildren();
    if (on && slot.dataset.say) slot.appendChild(speakerButton(slot.dataset.say, data.listen, data.lang));
  }
}

// The feedback lives in one status element kept across questions: a screen reader says
// a live region's new text, not one that arrives with its text already in it.
function qfStatus(root, feedback, intro) {
  const said = root.querySelector(".qf-said");
  // Before the first answer the box keeps its place and says what to do (the line the
  // page had under its title): when it first showed, the numbers moved down under a
  // finger coming back for a second tap, and an empty box left a blank band there.
  said.className = `qf-said ${feedback ? (feedback.kind === "success" ? "qf-ok" : "qf-no") : "qf-intro"}`;
  said.replaceChildren(...(feedback ? [qfEl("span", "qf-said-text", feedback.text),
                                       qfSpeakSlot(feedback.said)]
                                     : [qfEl("span", "qf-said-text", intro || "\u00a0")]));
}

// Milliseconds the voice spoke while the question on screen waited (the correction of
// the answer before it): sent with the answer, so that the fact's time counts the child,
// not the voice (Python takes them off). Only a voice that had finished: a child who
// answers while it still speaks was not waiting for it, and her whole time is hers
// (taking it all off saved a right answer at 0.2 s, "fluent" for nothing).
function qfHeard(st, now) {
  if (st.voiceFrom === null || st.voiceTo === null || st.voiceTo > now) return 0;
  return Math.max(0, Math.round(st.voiceTo - Math.max(st.voiceFrom, st.questionAt)));
}

// When the voice has finished (or after 15 s, whatever it says): polled, as an
// utterance's own end event is not fired by every browser.
function qfVoiceEnd(st) {
  clearInterval(st.voicePoll);
  const began = performance.now();
  st.voicePoll = setInterval(() => {
    const synth = window.speechSynthesis;
    const now = performance.now();
    if (!synth || !(synth.speaking || synth.pending) || now - began > 15000) {
      st.voiceTo = now;
      clearInterval(st.voicePoll);
    }
  }, 100);
}

// An answer of this page came back: heard as well as seen (a child who reads slowly
// knew only by the box's colour). A right one chimes; a wrong one sounds softly and,
// when goals are read aloud (``auto``), its correction is said ("6 plus 9 makes 15");
// the round's end sounds a star and is said. Not for a screen drawn anew (a reload),
// which only shows where the round is.
function qfCue(st, data) {
  const fb = data.feedback;
  const texts = [];
  if (fb && fb.kind !== "success") texts.push(fb.said);
  if (data.done) {
    voicePlay("star");
    texts.push(data.done.said);
  } else if (fb) {
    voicePlay(fb.kind === "success" ? "capture" : "wrong");
  }
  if (!texts.length || !data.auto || !VOICE.sound || voiceHas(data.lang) !== "yes" ||
      !voiceUnlocked()) return;
  voiceSay(texts, data.lang);
  st.voiceFrom = performance.now();
  st.voiceTo = null;
  qfVoiceEnd(st);
}

function qfRender(root, data) {
  qfStatus(root, data.feedback, data.intro);
  const parts = [];
  if (data.done) {
    const head = qfEl("div", "qf-line");
    head.append(qfEl("h3", "qf-done", data.done.title), qfSpeakSlot(data.done.said));
    const list = qfEl("ul", "qf-results");
    for (const line of data.done.lines) list.appendChild(qfEl("li", "", line));
    const again = qfEl("button", "qf-again", data.done.again);
    again.type = "button";
    parts.push(head, list, again);
  } else if (data.question) {
    const q = data.question;
    parts.push(qfEl("p", "qf-progress", q.progress));
    const cards = qfEl("div", "qf-cards");
    cards.innerHTML = q.cards;  // trusted: drawn by trainer.cards, never typed text
    const asked = qfEl("div", "qf-line");
    const text = qfEl("div", "qf-question", q.text);
    text.dataset.testid = "qf-question";
    asked.append(text, qfSpeakSlot(q.said));
    const pad = qfEl("div", "qf-pad");
    pad.setAttribute("role", "group");
    pad.setAttribute("aria-label", q.text);
    for (let n = 1; n <= 10; n++) {
      const b = qfEl("button", "qf-n", String(n));
      b.type = "button";
      b.dataset.n = String(n);
      pad.appendChild(b);
    }
    parts.push(cards, asked, pad);
  }
  root.querySelector(".qf-body").replaceChildren(...parts);
  qfSpeakers(root);
}

// The pad taken (a tap in flight) or given back.
function qfBusy(root, st, busy) {
  st.busy = busy;
  clearTimeout(st.busyTimer);
  root.classList.toggle("qf-busy", busy);
  for (const b of root.querySelectorAll(".qf-n, .qf-again")) {
    if (busy) b.setAttribute("aria-disabled", "true");
    else b.removeAttribute("aria-disabled");
  }
  if (busy) {
    // A tap whose run never comes back (the server gone, the message lost): the pad is
    // given back after a while rather than staying dead under the child's finger.
    st.busyTimer = setTimeout(() => qfBusy(root, st, false), BUSY_MS);
    return;
  }
  for (const b of root.querySelectorAll(".qf-sent")) {
    b.classList.remove("qf-sent");
    b.removeAttribute("aria-pressed");
  }
}

function qfBind(root, st) {
  root.addEventListener("click", (e) => {
    const n = e.target.closest(".qf-n");
    if (n) {
      // One answer in flight at a time, and a double tap answers once.
      const now = performance.now();
      if (st.busy || now - st.tappedAt < DOUBLE_TAP_MS) return;
      st.tappedAt = now;
      qfBusy(root, st, true);
      n.classList.add("qf-sent");
      n.setAttribute("aria-pressed", "true");
      st.send("answer", { round: st.data.round, index: st.data.index, value: Number(n.dataset.n),
                          heard: qfHeard(st, now) });
      return;
    }
    if (e.target.closest(".qf-again")) {
      if (st.busy) return;
      qfBusy(root, st, true);
      st.send("again", st.data.round);
    }
  });
}

export default function (component) {
  const { data, parentElement, setTriggerValue, setStateValue } = component;
  let root = parentElement.querySelector(".qf-root");
  if (!root) {
    root = qfEl("div", "qf-root");
    const said = qfEl("div", "qf-said");
    said.setAttribute("role", "status");
    said.dataset.testid = "qf-feedback";
    root.append(said, qfEl("div", "qf-body"));
    parentElement.appendChild(root);
  }
  if (!data) return;
  VOICE.sound = !!data.sound;
  voiceBind(root, null);
  let st = QF_STATE.get(root);
  if (!st) {
    st = { shown: null, tappedAt: -Infinity, answered: null, busy: false, busyTimer: null,
           readyFor: null, questionAt: 0, voiceFrom: null, voiceTo: null, voicePoll: null };
    QF_STATE.set(root, st);
    qfBind(root, st);
    const redraw = () => {
      if (root.isConnected) qfSpeakers(root);
      else VOICE.listeners.delete(redraw);  // a round no longer on the page
    };
    VOICE.listeners.add(redraw);
  }
  st.send = setTriggerValue;
  st.data = data;
  // The screen is drawn anew only when what it shows changed (a run that changes
  // nothing moves nothing). The pad is given back when Python has answered a tap
  // (``taps``: every tap it took, refused or not saved too: the same screen comes
  // back) or the server session is a new one; not by another run (the ``ready`` word)
  // while the child's tap is still on its way.
  const shown = JSON.stringify([data.round, data.index, data.answered, !!data.done]);
  const answered = JSON.stringify([data.session, data.taps, shown]);
  if (st.shown !== shown) {
    // The answer just given, of this round, on this page (not a reload's first draw).
    const [round, , answered] = st.shown === null ? [] : JSON.parse(st.shown);
    const answeredHere = round === data.round && data.answered === answered + 1;
    st.shown = shown;
    qfRender(root, data);
    st.questionAt = performance.now();
    st.voiceFrom = null;
    st.voiceTo = null;
    clearInterval(st.voicePoll);
    const synth = window.speechSynthesis;
    if (synth && (synth.speaking || synth.pending)) {
      // A voice still going from before (a correction, a right answer tapped fast
      // after it): its time on this question is the voice's too.
      st.voiceFrom = st.questionAt;
      qfVoiceEnd(st);
    }
    if (answeredHere) qfCue(st, data);
  } else {
    qfSpeakers(root);  // the mute switch may have moved
  }
  if (st.answered !== answered) {
    st.answered = answered;
    qfBusy(root, st, false);
  }
  root.dataset.index = String(data.index);
  // Drawn: said once to each server session, as the board says it (its text pad, the
  // fallback, is then no longer drawn).
  if (!data.ready && st.readyFor !== data.session) {
    st.readyFor = data.session;
    sayAlone(() => setStateValue("ready", data.session || true));
  }
}
