#!/usr/bin/env node
// plan-example / appraise: reads the opponents. Who threatens us, what their tells say about their
// mood, who is soft. Optional in the plan: if it fails, deliberate gets null and plays on.
//
// stdin : {"requestId","tool":"appraise","operation","input":{...TurnPlanRequest fields...,
//          "params":{"grievance_weight":4,"hostility_decay":0.6},"dependencies":{}}}
// stdout: log, state_patch {"appraisal": {...}}, done. Pure function of stdin.

const out = (ev) => process.stdout.write(JSON.stringify({ version: '0', ...ev }) + '\n');
const num = (x, d = 0) => (typeof x === 'number' && Number.isFinite(x) ? x : d);

const THREAT_WORDS = /\b(you are next|regret|breaking|over your shoulder|is mine|coming for you|target|feel this)\b/i;

function moodOf(tell) {
  if (!tell || tell.masked) return 'masked';
  const v = tell.vector;
  if (v) {
    if (num(v.tilt) >= 0.35) return 'tilted';
    if (num(v.fear) >= 0.35) return 'afraid';
    if (num(v.anger) >= 0.35) return 'angry';
    if (num(v.confidence) >= 0.5) return 'confident';
    return 'steady';
  }
  switch (tell.dominant) {
    case 'tilt':
      return 'tilted';
    case 'fear':
      return 'afraid';
    case 'anger':
      return 'angry';
    case 'confidence':
    case 'dominance':
      return 'confident';
    default:
      return 'unknown';
  }
}

function appraise(inp) {
  const params = inp.params ?? {};
  const gw = num(params.grievance_weight, 4);
  const me = inp.player_id;
  const w = inp.public_world_view ?? {};
  const priv = inp.player_private_view ?? {};
  const emo = priv.emotion_state ?? {};
  const plans = priv.belief_state?.revealed_plans ?? {};
  const players = (w.players ?? []).filter((p) => p.alive && p.player_id !== me);
  const standing = (p) => num(p.lives) * 12 + Math.max(0, num(p.resolve));
  const mean = players.reduce((s, p) => s + standing(p), 0) / Math.max(1, players.length);
  const opponents = {};
  for (const p of players) {
    const id = p.player_id;
    const onMe = (w.stack ?? []).filter((e) => e.player_id === id && e.target_player_id === me).length + (inp.constraints?.incoming_attack?.attacker_player_id === id ? 1 : 0);
    const talkedAtMe = (w.round_speech ?? []).some((s) => s.player_id === id && s.target_player_id === me && THREAT_WORDS.test(s.text ?? ''));
    const aimedAtMe = plans[id]?.emotional_intent?.target_player_id === me;
    const threat = gw * num(emo.grievance?.[id]) + 1.2 * Math.min(onMe, 2) + (talkedAtMe ? 0.6 : 0) + (aimedAtMe ? 0.7 : 0) + 0.3 * ((standing(p) - mean) / 12) - 0.5 * Math.max(0, num(emo.trust?.[id], 0.2) - 0.2);
    const trapped = (w.arena?.cards ?? []).filter((a) => a.owner_player_id === id && a.face_down).length;
    opponents[id] = {
      threat: Math.round(threat * 1000) / 1000,
      mood: moodOf(p.tell),
      resolve: p.resolve,
      lives: p.lives,
      exposure: p.exposure,
      tempo: p.tempo,
      hand: p.hand_count,
      trapped,
      attacked_me_now: onMe,
      vulnerable: num(p.resolve) <= 4 || num(p.exposure) >= 5,
    };
  }
  const ids = Object.keys(opponents).sort();
  const by = (f) => ids.slice().sort((a, b) => f(b) - f(a) || (a < b ? -1 : 1));
  return {
    opponents,
    top_threat: by((id) => opponents[id].threat)[0] ?? null,
    softest: by((id) => -num(opponents[id].resolve) - 3 * num(opponents[id].lives) + 0.3 * opponents[id].exposure - 0.5 * opponents[id].trapped)[0] ?? null,
    leader: by((id) => 12 * num(opponents[id].lives) + num(opponents[id].resolve))[0] ?? null,
  };
}

function main(text) {
  let a;
  try {
    const msg = JSON.parse(text.split('\n')[0]);
    a = appraise(msg.input);
  } catch (err) {
    process.stderr.write(`appraise: ${err?.stack ?? err}\n`);
    out({ type: 'error', errorCode: 'appraise_failed', errorMessage: String(err?.message ?? err).slice(0, 300) || 'failed' });
    out({ type: 'done', ok: false });
    return;
  }
  out({ type: 'log', level: 'debug', message: `top threat ${a.top_threat}, softest ${a.softest}, leader ${a.leader}` });
  out({ type: 'state_patch', patch: { appraisal: a } });
  out({ type: 'done', ok: true });
}

let buf = '';
let done = false;
const handle = () => {
  if (done) return;
  done = true;
  main(buf);
  process.stdin.destroy();
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  if (buf.includes('\n')) handle();
});
process.stdin.on('end', handle);
