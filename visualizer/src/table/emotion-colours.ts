import type { MeterEmotion } from '../../../src/view/index.js';

/**
 * One colour per metered emotion, from the Okabe–Ito palette (told apart under the common colour
 * blindnesses), each at least 4.5:1 against the meter's track (#0f1216), and named so a legend
 * and a tooltip can say which is which.
 */
export const EMOTION_COLOURS: Record<MeterEmotion, { hex: string; name: string }> = {
  fear: { hex: '#56b4e9', name: 'sky blue' },
  anger: { hex: '#d55e00', name: 'vermilion' },
  shame: { hex: '#cc79a7', name: 'pink' },
  tilt: { hex: '#f0e442', name: 'yellow' },
  confidence: { hex: '#009e73', name: 'green' },
};
