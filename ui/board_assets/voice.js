// Spoken words and short sounds for the board (issue 23). Loaded before board.js in the
// same component (ui/board_component.py) and in the speaker buttons (ui/speaker.py).
//
// - Speech is the browser's own speechSynthesis: local voices, nothing leaves the device.
//   Python sends the words already made speakable (trainer/speech.py): cards in words,
//   sums as a child says them, no symbols.
// - Sounds are synthesized with the Web Audio API (oscillators and a little noise): no
//   file is fetched.
// - Nothing is spoken or played before the child's first tap (browsers, iOS Safari above
//   all, allow it only inside a gesture): the first tap anywhere on the page unlocks both,
//   and a goal waiting to be read is read right then, inside that tap.
// - One state for the whole page (window.__escobaVoice): every board, the listener every
//   page loads (ui/voice_component.py) and the speaker buttons share the unlock, the voice
//   list and the mute.

const VOICE = (() => {
  if (window.__escobaVoice) return window.__escobaVoice;
  const v = {
    gesture: false,        // our listener saw a tap or a key
    pending: null,         // {texts, lang}: to say at the first tap
    said: new Set(),       // goal/feedback keys already read aloud by themselves
    cues: new Set(),       // sound cues already played (or skipped)
    sound: true,           // the mute switch (Settings and the board)
    ctx: null,             // the AudioContext, made at the first tap
    voices: null,          // null: not known yet; [] none at all
    noVoiceShown: new Set(),
    listeners: new Set(),  // redraws to run when the voice list arrives
    played: [],            // the sounds played, by name (for the browser tests)
  };
  window.__escobaVoice = v;
  const synth = window.speechSynthesis;
  const loadVoices = () => {
    if (!synth) { v.voices = []; return; }
    const list = synth.getVoices() || [];
    if (list.length || v.voices !== null) v.voices = list;
    for (const f of v.listeners) f();
  };
  if (synth) {
    loadVoices();
    if (synth.addEventListener) synth.addEventListener("voiceschanged", loadVoices);
    // A browser that has no voice at all never fires voiceschanged: after a while,
    // "none" is the answer.
    setTimeout(() => { if (v.voices === null) { v.voices = synth.getVoices() || []; loadVoices(); } },
      1500);
  } else {
    v.voices = [];
  }
  const onGesture = () => {
    if (v.gesture) return;
    v.gesture = true;
    if (v.sound) audio();
    const waiting = v.pending;
    v.pending = null;
    if (waiting) sayNow(waiting.texts, waiting.lang);
    else if (v.sound && synth) {
      // iOS speaks later only if something was spoken inside a gesture once.
      const u = new SpeechSynthesisUtterance("");
      u.volume = 0;
      synth.speak(u);
    }
  };
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    document.addEventListener(type, onGesture, { capture: true, passive: true });
  }
  return v;
})();

// Whether the page may make a sound: a tap (or a key) seen by our listener, which every
// page loads in its sidebar (ui/voice_component.py), so the tap on "Start here" counts.
function voiceUnlocked() {
  return VOICE.gesture;
}

function voiceFor(lang) {
  const code = String(lang || "en").slice(0, 2).toLowerCase();
  return (VOICE.voices || []).find((x) =>
    String(x.lang || "").replace("_", "-").toLowerCase().startsWith(code)) || null;
}

// "yes", "no", or "unknown" (the list has not come yet).
function voiceHas(lang) {
  if (!window.speechSynthesis) return "no";
  if (VOICE.voices === null) return "unknown";
  return voiceFor(lang) ? "yes" : "no";
}

// "No voice for this language" is said once per device and language (kept in the
// browser's own storage; nothing is sent), then the speaker buttons just stay away.
function voiceNoticeSeen(lang) {
  const key = "escoba-no-voice-" + String(lang).slice(0, 2);
  if (VOICE.noVoiceShown.has(key)) return true;
  VOICE.noVoiceShown.add(key);
  try {
    if (window.localStorage.getItem(key)) return true;
    window.localStorage.setItem(key, "1");
  } catch (e) {
    // Storage blocked: once per page instead.
  }
  return false;
}

function sayNow(texts, lang) {
  const synth = window.speechSynthesis;
  // No voice of the child's language: another language's voice would garble it.
  if (!synth || voiceHas(lang) === "no") return;
  synth.cancel();
  const voice = voiceFor(lang);
  for (const text of texts.filter(Boolean)) {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = voice ? voice.lang : lang;
    if (voice) u.voice = voice;
    u.rate = 0.9;  // a little slower: for a child
    u.onerror = (e) => {
      // iOS: not allowed outside a gesture. Say it at the next tap instead.
      if (e && e.error === "not-allowed") {
        VOICE.gesture = false;
        VOICE.pending = { texts, lang };
      }
    };
    synth.speak(u);
  }
}

// Say these texts now if the page may, else at the first tap. Muted: never.
function voiceSay(texts, lang) {
  if (!VOICE.sound) return;
  if (voiceUnlocked()) sayNow(texts, lang);
  else VOICE.pending = { texts, lang };
}

// ------------------------------------------------------------------ sounds ----------

function audio() {
  if (!VOICE.ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    VOICE.ctx = new Ctx();
  }
  if (VOICE.ctx.state === "suspended" && VOICE.ctx.resume) VOICE.ctx.resume();
  return VOICE.ctx;
}

function tone(ctx, freq, at, dur, type, level) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type || "sine";
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level || 0.12, at + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + dur + 0.02);
}

function swoosh(ctx, at, dur) {
  const buffer = ctx.createBuffer(1, Math.max(1, Math.floor(ctx.sampleRate * dur)), ctx.sampleRate);
  const samples = buffer.getChannelData(0);
  for (let i = 0; i < samples.length; i++) samples[i] = (Math.random() * 2 - 1) * (1 - i / samples.length);
  const noise = ctx.createBufferSource();
  noise.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.setValueAtTime(800, at);
  filter.frequency.exponentialRampToValueAtTime(3000, at + dur);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.08, at);
  noise.connect(filter).connect(gain).connect(ctx.destination);
  noise.start(at);
}

// capture, escoba, star, wrong, deal: each under half a second, soft.
const SOUNDS = {
  capture: (c, t) => { tone(c, 660, t, 0.1); tone(c, 880, t + 0.08, 0.14); },
  escoba: (c, t) => {
    swoosh(c, t, 0.35);
    [523, 659, 784, 1047].forEach((f, i) => tone(c, f, t + 0.1 + i * 0.07, 0.16, "triangle"));
  },
  star: (c, t) => { tone(c, 1175, t, 0.16, "triangle"); tone(c, 1568, t + 0.1, 0.3, "triangle"); },
  wrong: (c, t) => { tone(c, 330, t, 0.15, "sine", 0.09); tone(c, 262, t + 0.13, 0.22, "sine", 0.09); },
  deal: (c, t) => { for (let i = 0; i < 3; i++) tone(c, 1300, t + i * 0.07, 0.04, "triangle", 0.06); },
};

function voicePlay(kind) {
  if (!VOICE.sound || !voiceUnlocked() || !SOUNDS[kind]) return;
  const ctx = audio();
  if (!ctx) return;
  SOUNDS[kind](ctx, ctx.currentTime + 0.01);
  VOICE.played.push(kind);
}

// ------------------------------------------------------------------ on the page ----------

function speakerButton(text, label, lang) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "eb-speak";
  b.setAttribute("aria-label", label);
  b.title = label;
  b.textContent = "🔊";
  b.dataset.say = text;
  b.dataset.lang = lang;
  return b;
}

// A click on a speaker button says its text (inside the tap: fine on iOS); the mute switch
// turns every sound and every voice off or on, and tells Python to keep it in the profile.
function voiceBind(root, onSound) {
  if (root.__voiceBound) { root.__voiceOnSound = onSound; return; }
  root.__voiceBound = true;
  root.__voiceOnSound = onSound;
  root.addEventListener("click", (e) => {
    const speak = e.target.closest(".eb-speak");
    if (speak) {
      e.stopPropagation();
      VOICE.gesture = true;
      VOICE.pending = null;
      sayNow([speak.dataset.say], speak.dataset.lang);
      return;
    }
    const mute = e.target.closest(".eb-mute");
    if (mute) {
      e.stopPropagation();
      VOICE.sound = !VOICE.sound;
      if (!VOICE.sound && window.speechSynthesis) window.speechSynthesis.cancel();
      VOICE.pending = null;
      for (const f of VOICE.listeners) f();
      if (root.__voiceOnSound) root.__voiceOnSound(VOICE.sound);
    }
  });
}

// Speaker buttons beside the goal, each "what just happened" line and the score; the mute
// switch; "no voice on this device" once; the goal read aloud; the sounds of what happened.
// ``speech`` is the data Python made (ui/speaker.py); ``fresh`` the event ids new on screen.
function voiceBoard(root, data, fresh, mounted, onSound) {
  const speech = data.speech;
  if (!speech) return;
  VOICE.sound = !!speech.sound;
  voiceBind(root, onSound);
  const lang = speech.lang;
  const T = speech.texts;
  const draw = () => {
    for (const el of root.querySelectorAll(".eb-speak, .eb-voicebar, .eb-novoice")) el.remove();
    const bar = document.createElement("div");
    bar.className = "eb-voicebar";
    const mute = document.createElement("button");
    mute.type = "button";
    mute.className = "eb-mute";
    // A toggle named "Sound off", pressed while muted; its tooltip says what a tap does.
    mute.setAttribute("aria-pressed", VOICE.sound ? "false" : "true");
    mute.setAttribute("aria-label", T.sound_off);
    mute.title = VOICE.sound ? T.sound_off : T.sound_on;
    // A bell, not a speaker: the speaker buttons say a text, this one is the switch.
    mute.textContent = VOICE.sound ? "🔔" : "🔕";
    bar.appendChild(mute);
    root.prepend(bar);
    const has = voiceHas(lang);
    if (has === "no" && VOICE.sound && !voiceNoticeSeen(lang)) {
      const note = document.createElement("p");
      note.className = "eb-novoice";
      note.setAttribute("role", "status");
      note.textContent = T.no_voice;
      // Below the board: a note for a grown-up, not words a child reads before acting.
      root.append(note);
      root.__noVoiceNote = note.textContent;
    } else if (has === "no" && root.__noVoiceNote) {
      // The same board redrawn keeps saying it; another board does not.
      const note = document.createElement("p");
      note.className = "eb-novoice";
      note.textContent = root.__noVoiceNote;
      root.append(note);
    }
    if (has !== "yes" || !VOICE.sound) return;
    const intro = root.querySelector(".eb-intro");
    if (intro && speech.goal) intro.prepend(speakerButton(speech.goal, T.listen, lang));
    const header = root.querySelector(".eb-header");
    if (header && speech.header) header.prepend(speakerButton(speech.header, T.listen, lang));
    const lines = root.querySelectorAll(".eb-event");
    (speech.events || []).forEach((text, i) => {
      if (lines[i] && text) lines[i].prepend(speakerButton(text, T.listen, lang));
    });
    // A refused move's reason (board.js shows it until the next tap, which removes it).
    const refusal = root.querySelector(".eb-refused");
    if (refusal && !refusal.hidden && data.refused && data.refused.spoken) {
      refusal.prepend(speakerButton(data.refused.spoken, T.listen, lang));
    }
  };
  if (root.__voiceDraw) VOICE.listeners.delete(root.__voiceDraw);
  root.__voiceDraw = draw;
  VOICE.listeners.add(draw);
  draw();
  // Read aloud by itself: what the last tap did, then a new goal (each once).
  if (speech.auto && VOICE.sound) {
    const texts = [];
    if (speech.feedback && !VOICE.said.has(speech.feedback_key)) {
      VOICE.said.add(speech.feedback_key);
      texts.push(speech.feedback);
    }
    // Why a move was refused, once, right after the tap on Play that it answers.
    const refusedKey = data.refused && data.refused.spoken ?
      `refused:${data.session}:${data.refused.id}` : null;
    if (refusedKey && !VOICE.said.has(refusedKey)) {
      VOICE.said.add(refusedKey);
      texts.push(data.refused.spoken);
    }
    if (speech.goal && speech.goal_key && !VOICE.said.has(speech.goal_key)) {
      VOICE.said.add(speech.goal_key);
      texts.push(speech.goal);
    }
    if (texts.length) voiceSay(texts, lang);
  }
  // Sounds: the newest thing that happened (an escoba above a capture), a cue from Python
  // (a star, a wrong sum), a new deal (the hand grew in the same game).
  let sound = null;
  const events = (data.events || []).filter((e) => fresh.has(e.id));
  if (events.some((e) => e.escoba)) sound = "escoba";
  else if (events.some((e) => e.take && e.take.length)) sound = "capture";
  const cue = speech.cue;
  if (cue && !VOICE.cues.has(cue.id)) {
    VOICE.cues.add(cue.id);  // once: a rerun of the same page does not play it again
    if (cue.sound === "wrong" || !sound) sound = cue.sound;
  }
  const handNow = (data.hand || []).length;
  const before = root.__voiceHand;
  if (mounted && before && before.key === data.game_key && handNow > before.count && !sound) {
    sound = "deal";
  }
  root.__voiceHand = { key: data.game_key, count: handNow };
  if (sound) voicePlay(sound);
}
