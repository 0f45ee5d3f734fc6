// A speaker button beside a text the page shows outside the board (a lesson's feedback,
// the hint panel): one tap says it (voice.js, loaded before this file). Nothing shows
// while the sound is off or the device has no voice for the language.
export default function (component) {
  const { data, parentElement } = component;
  let root = parentElement.querySelector(".eb-speaker");
  if (!root) {
    root = document.createElement("div");
    root.className = "eb-speaker";
    parentElement.appendChild(root);
  }
  if (!data) return;
  VOICE.sound = !!data.sound;
  voiceBind(root, null);
  const draw = () => {
    root.replaceChildren();
    if (!VOICE.sound || voiceHas(data.lang) !== "yes") return;
    root.appendChild(speakerButton(data.text, data.label, data.lang));
  };
  if (root.__voiceDraw) VOICE.listeners.delete(root.__voiceDraw);
  root.__voiceDraw = draw;
  VOICE.listeners.add(draw);
  draw();
}
