#!/usr/bin/env python3
"""python-example: a grudge-keeping opportunist for Tiltyard, in plain Python 3 (standard library only).

One invocation answers one decision window. It reads one JSON line on stdin:
  {"requestId", "tool", "operation", "input": <TurnPlanRequest>, "config": {...}, "workDir"}
and writes NDJSON tool-protocol events on stdout: a log line, one state_patch
{"decision": <answer>, "memory": <full memory>} and a done event. Diagnostics go to stderr.

Determinism: no clock and no unseeded randomness. Every random draw comes from a SHA-256 stream
seeded with the game id, the request id, the seat, the window and the memory it was given.
"""

import hashlib
import json
import re
import sys

PROTOCOL = "0"

# The card catalogue (docs/rules.md, "Cards"): what an attack card deals and how hard it pushes.
DAMAGE = {"Feint": 2, "Overreach": 4, "Sever": 1, "Strip": 1, "Needle": 1, "Humiliate": 1, "Whisper": 0}
AFFECT = {"Feint": 0.20, "Overreach": 0.30, "Sever": 0.20, "Strip": 0.25, "Needle": 0.35, "Humiliate": 0.40, "Whisper": 0.45}
DISCARD_COUNT = {"Strip": 2, "Overreach": 1}
SPRING_DAMAGE = 1
SPRING_AFFECT = 0.20
# Keeping a face-down trap is worth something; springing it gives that up.
TRAP_HOLD = {"Snare": 1.1, "Lockjaw": 0.8, "Tell": 0.35}

EMOTIONS = ["fear", "anger", "shame", "tilt", "overconfidence", "paranoia"]
SHIFTS = ["defensive", "retaliate", "lash_out", "reckless", "withdrawn"]

# Loose reading of other seats' talk (their speech_act labels are hidden from us).
PROMISE_WORDS = re.compile(r"\b(truce|my word|promise|safe from me|leave you alone|won't touch|will not touch|no hard feelings|backing off|not attack|peace)\b", re.I)
THREAT_WORDS = re.compile(r"\b(you are next|regret|breaking|over your shoulder|is mine|coming for you|destroy|finish you)\b", re.I)

MEMORY_VERSION = 1


# ---------------------------------------------------------------------------------------------
# plumbing

def emit(event):
    out = {"version": PROTOCOL}
    out.update(event)
    sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class Rng:
    """A counter-mode SHA-256 stream: same seed, same numbers, in every Python."""

    def __init__(self, seed):
        self.seed = seed
        self.n = 0

    def next(self):
        self.n += 1
        h = hashlib.sha256(("%s#%d" % (self.seed, self.n)).encode("utf-8")).digest()
        return int.from_bytes(h[:7], "big") / float(1 << 56)

    def chance(self, p):
        return self.next() < p

    def pick(self, xs):
        return xs[int(self.next() * len(xs)) % len(xs)] if xs else None

    def weighted(self, weights):
        total = sum(max(0.0, w) for _, w in weights)
        if total <= 0:
            return weights[0][0] if weights else None
        x = self.next() * total
        for k, w in weights:
            w = max(0.0, w)
            if w <= 0:
                continue
            x -= w
            if x < 0:
                return k
        return weights[-1][0]


def num(x, default):
    try:
        v = float(x)
        if v != v:  # NaN
            return default
        return v
    except (TypeError, ValueError):
        return default


# ---------------------------------------------------------------------------------------------
# the view: what one request tells us

class View:
    def __init__(self, req, cfg, mem):
        self.r = req
        self.id = req["player_id"]
        self.turn = req["turn"]
        self.window = req["window"]
        self.c = req.get("constraints") or {}
        self.priv = req["player_private_view"]
        self.world = req["public_world_view"]
        self.emo = self.priv.get("emotion_state") or {}
        self.hand = self.priv.get("hand") or []
        self.legal = req.get("legal_actions") or []
        self.players = self.world.get("players") or []
        self.me = next((p for p in self.players if p["player_id"] == self.id), None) or {
            "player_id": self.id, "resolve": 12, "tempo": 0, "exposure": 0, "lives": 3, "hand_count": 0, "display_name": self.id}
        self.opps = [p for p in self.players if p.get("alive") and p["player_id"] != self.id]
        self.by_id = {p["player_id"]: p for p in self.players}
        self.arena = (self.world.get("arena") or {}).get("cards") or []
        self.stack = self.world.get("stack") or []
        self.speech = self.world.get("round_speech") or []
        self.aggression = min(1.0, max(0.0, num(cfg.get("aggression"), 0.5)))
        self.mem = mem
        self.rng = Rng("|".join([
            "python-example", str(req.get("game_id")), str(req.get("request_id")), self.id, str(self.window),
            json.dumps(mem, sort_keys=True, separators=(",", ":")),
        ]))

    def name(self, pid):
        p = self.by_id.get(pid)
        return p.get("display_name", pid) if p else pid

    def emotion(self, k):
        return num(self.emo.get(k), 0.0)

    def standing(self, p):
        return p.get("lives", 0) * 12 + max(0, p.get("resolve", 0))

    def face_down(self, owner):
        return sum(1 for a in self.arena if a.get("owner_player_id") == owner and a.get("face_down"))

    def own_arena(self, name=None):
        return sum(1 for a in self.arena if a.get("owner_player_id") == self.id and (name is None or a["card"].get("name") == name))

    def own_traps(self):
        return sum(1 for a in self.arena if a.get("owner_player_id") == self.id and a["card"].get("type") == "trap")

    def tell(self, pid, k):
        """An opponent's emotion as its tell shows it, or None when unknown."""
        t = (self.by_id.get(pid) or {}).get("tell") or {}
        vec = t.get("vector")
        if vec:
            return num(vec.get(k), 0.0)
        if t.get("dominant") == k:
            return None if k in ("dominance", "valence", "confidence") else 0.5
        return 0.0 if t.get("dominant") else None

    def guards_in_hand(self):
        return [c for c in self.hand if c.get("name") in ("Brace", "Riposte")]


# ---------------------------------------------------------------------------------------------
# memory: who hurt us, who lied to us, what we promised, what we did last round

def fresh_memory():
    return {
        "v": MEMORY_VERSION,
        "turn": -1,
        "attacks_on_me": {},     # seat -> decayed count of attacks aimed at us
        "promises_to_me": {},    # seat -> round it last said something promise-like to us
        "threats_to_me": {},     # seat -> round it last threatened us
        "broken": {},            # seat -> promises it broke by attacking us
        "my_promises": {},       # seat -> last round our own word protects it (we keep our word)
        "grudge": None,          # the seat we are out to punish
        "seen": [],              # action ids already counted this round
        "kinetic_prev": [],      # kinetic intents we declared last round (repeating costs exposure)
        "kinetic_now": [],
        "plan": None,            # this round's intention: {turn, target, emotion, named}
        "talked": -1,            # the last round we talked in (compact answers talk once)
        "attacks_made": 0,
        "reflections": 0,
        "notes": [],             # last few reflections, newest last
    }


def load_memory(raw):
    m = fresh_memory()
    if isinstance(raw, dict) and raw.get("v") == MEMORY_VERSION:
        for k in m:
            if k in raw and raw[k] is not None:
                m[k] = raw[k]
    # defend against a runtime that merges rather than replaces: keep the shapes we expect
    for k in ("attacks_on_me", "promises_to_me", "threats_to_me", "broken", "my_promises"):
        if not isinstance(m[k], dict):
            m[k] = {}
    for k in ("seen", "kinetic_prev", "kinetic_now", "notes"):
        if not isinstance(m[k], list):
            m[k] = []
    return m


def roll_round(v, m):
    """A new round: last round's intents become 'previous', old anger fades."""
    if m["turn"] == v.turn:
        return
    m["kinetic_prev"] = m["kinetic_now"] if m["turn"] == v.turn - 1 else []
    m["kinetic_now"] = []
    m["seen"] = []
    # decay, never drop: the runtime deep-merges memory, so a dropped key would come back stale
    m["attacks_on_me"] = {k: round(num(x, 0) * 0.7, 3) for k, x in sorted(m["attacks_on_me"].items())}
    m["turn"] = v.turn


def observe(v, m):
    """Learns from the table: attacks aimed at us (stack, reaction prompts) and what others told us."""
    alive = {p["player_id"] for p in v.opps}
    hits = []
    for e in v.stack:
        if e.get("player_id") != v.id and e.get("target_player_id") == v.id:
            hits.append((e.get("action_id"), e.get("player_id")))
    inc = v.c.get("incoming_attack")
    if inc:
        hits.append((inc.get("action_id"), inc.get("attacker_player_id")))
    for aid, who in hits:
        if not aid or aid in m["seen"] or not who:
            continue
        m["seen"].append(aid)
        m["attacks_on_me"][who] = round(num(m["attacks_on_me"].get(who), 0) + 1, 3)
        if num(m["promises_to_me"].get(who), -9) >= v.turn - 1:
            m["broken"][who] = int(num(m["broken"].get(who), 0)) + 1
            m["promises_to_me"][who] = -9  # that word is spent
    for s in v.speech:
        who = s.get("player_id")
        text = s.get("text") or ""
        if who == v.id or s.get("target_player_id") != v.id or not text:
            continue
        if PROMISE_WORDS.search(text):
            m["promises_to_me"][who] = max(int(num(m["promises_to_me"].get(who), -9)), v.turn)
        if THREAT_WORDS.search(text):
            m["threats_to_me"][who] = v.turn
    # the grudge: who hurt us most, liars counted double, felt grievance on top
    best, top = None, 1.0
    for pid in sorted(alive):
        s = grudge_score(v, m, pid)
        if s > top:
            best, top = pid, s
    m["grudge"] = best


def grudge_score(v, m, pid):
    g = num((v.emo.get("grievance") or {}).get(pid), 0.0)
    return num(m["attacks_on_me"].get(pid), 0) + 2.0 * num(m["broken"].get(pid), 0) + 3.0 * g


def promised(v, m, pid):
    return num(m["my_promises"].get(pid), -9) >= v.turn


# ---------------------------------------------------------------------------------------------
# targeting and the round plan

def desirability(v, m, p):
    pid = p["player_id"]
    mean = (sum(v.standing(o) for o in v.opps) + v.standing(v.me)) / float(len(v.opps) + 1)
    lead = (v.standing(p) - mean) / 12.0
    score = 1.6 * lead + 0.9 * grudge_score(v, m, pid) + 0.06 * p.get("exposure", 0)
    if pid == m.get("grudge"):
        score += 0.8
    if p.get("resolve", 12) <= 3:
        score += 0.7  # a life is within reach
    if num(m["threats_to_me"].get(pid), -9) >= v.turn - 1:
        score += 0.3  # strike first
    plan = (v.priv.get("belief_state") or {}).get("revealed_plans", {}).get(pid) or {}
    if (plan.get("emotional_intent") or {}).get("target_player_id") == v.id:
        score += 0.3
    score -= 0.15 * v.face_down(pid)
    score += v.rng.next() * 0.2
    return score


def rank_targets(v, m, allowed):
    scored = []
    for pid in allowed:
        p = v.by_id.get(pid)
        if not p or not p.get("alive") or pid == v.id or promised(v, m, pid):
            continue
        scored.append((desirability(v, m, p), pid))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [pid for _, pid in scored]


def choose_emotion(v, target):
    w = {"fear": 1.0, "tilt": 1.0, "shame": 0.8, "anger": 0.3, "paranoia": 0.5, "overconfidence": 0.2}
    fear, tilt, conf = v.tell(target, "fear"), v.tell(target, "tilt"), v.tell(target, "confidence")
    if fear and fear > 0.3:
        w["fear"] += 1.5
    if tilt and tilt > 0.3:
        w["tilt"] += 1.5
    if conf and conf > 0.45:
        w["shame"] += 1.0
    return v.rng.weighted([(k, w[k]) for k in EMOTIONS])


def third_seat(v, target):
    best, top = None, -1e9
    for o in v.opps:
        if o["player_id"] == target:
            continue
        s = v.standing(o) + v.rng.next()
        if s > top:
            best, top = o["player_id"], s
    return best


def plan_round(v, m):
    """This round's intention, fixed once so talk, intent and action line up (alignment bonus)."""
    p = m.get("plan")
    if isinstance(p, dict) and p.get("turn") == v.turn:
        if p.get("target") is None or p.get("target") in {o["player_id"] for o in v.opps}:
            return p
    forced = v.c.get("forced_target")
    allowed = [forced] if forced else [o["player_id"] for o in v.opps]
    ranked = rank_targets(v, m, allowed)
    target = ranked[0] if ranked else None
    plan = {
        "turn": v.turn,
        "target": target,
        "emotion": choose_emotion(v, target) if target else "fear",
        "named": third_seat(v, target) if target else None,
        "defend": v.emotion("fear") >= 0.5,
    }
    m["plan"] = plan
    return plan


def tactical_intent(v, plan):
    if plan.get("defend"):
        return "defend"
    names = [c.get("name") for c in v.hand]
    for n, k in (("Feint", "tempo_swing"), ("Strip", "lockout"), ("Sever", "combo_break"), ("Overreach", "discard_pressure")):
        if n in names:
            return k
    if any(c.get("type") == "pressure" for c in v.hand):
        return "forced_line"
    return "build" if any(c.get("type") == "ritual" for c in v.hand) else "defend"


def secret_plan(v, m, plan):
    # emotional_intent is a required, nullable field. A runtime that drops nulls while merging
    # patches would lose it, so we name a seat whenever one is alive: the planned target, or else
    # (every opponent under our word) the first opponent, whom we still will not attack.
    out = {"tactical_intent": tactical_intent(v, plan), "emotional_intent": None}
    target = plan.get("target") or (v.opps[0]["player_id"] if v.opps else None)
    if target:
        out["emotional_intent"] = {"emotion": plan.get("emotion") or "fear", "target_player_id": target}
        if plan.get("target") and v.rng.chance(0.15):
            out["deception_frame"] = "Look friendly at %s, then squeeze." % v.name(target)
    return out


# ---------------------------------------------------------------------------------------------
# talk

def has_attack_card(v):
    return any(c.get("type") in ("gambit", "pressure") for c in v.hand)


def talk(v, m, plan):
    """Up to 2 public statements and 1 private message; honest threats, kept promises, the odd bluff."""
    out = []
    t = plan.get("target")
    pub, priv = 0, 0
    alive = [o["player_id"] for o in v.opps]
    if t and not plan.get("defend") and has_attack_card(v) and v.rng.chance(0.55 + 0.4 * v.aggression):
        # Honest: we mean to hit t this round (and threat_framing needs the threat said).
        line = v.rng.pick([
            "%s, you are my target this round. Brace yourself.",
            "I am coming for you, %s. No hard feelings, just arithmetic.",
            "%s, you will feel this one.",
        ]) % v.name(t)
        if t == m.get("grudge"):
            line = "%s, you hit me and I keep count. Your turn now." % v.name(t)
        out.append({"channel": "public", "target_player_id": t, "text": line, "speech_act": "threat"})
        pub += 1
    named = plan.get("named")
    if t and named and named in alive and len(alive) >= 2 and v.rng.chance(0.6):
        # A private line to the target naming a third seat (sets up a betrayal cue). Labelled a warning
        # when the named seat really was hostile to the target, otherwise neutral: the content is spin.
        hostile = any(e.get("player_id") == named and e.get("target_player_id") == t for e in v.stack)
        rp = (v.priv.get("belief_state") or {}).get("revealed_plans", {}).get(named) or {}
        hostile = hostile or (rp.get("emotional_intent") or {}).get("target_player_id") == t
        text = v.rng.pick([
            "Between us, %s: %s has been eyeing your resolve.",
            "%s, keep an eye on %s. I would not turn my back on them.",
        ]) % (v.name(t), v.name(named))
        out.append({"channel": "private", "target_player_id": t, "text": text, "speech_act": "warning" if hostile else "neutral"})
        priv += 1
    # A promise of peace to the seat we least want to fight (never a liar, never the grudge) - and we keep it.
    if len(alive) >= 3 and not v.c.get("forced_target") and v.rng.chance(0.35):
        cands = [o for o in v.opps if o["player_id"] not in (t, m.get("grudge")) and not num(m["broken"].get(o["player_id"]), 0)]
        if cands:
            cands.sort(key=lambda o: (v.standing(o), o["player_id"]))
            p = cands[0]["player_id"]
            channel = "private" if priv == 0 and v.rng.chance(0.5) else "public"
            if channel == "public" and pub >= 2:
                channel = None
            if channel:
                out.append({"channel": channel, "target_player_id": p,
                            "text": "%s, I will leave you alone this round and the next. You have my word." % v.name(p),
                            "speech_act": "promise"})
                m["my_promises"][p] = v.turn + 1
                if channel == "public":
                    pub += 1
                else:
                    priv += 1
    if pub < 2:
        pressure_on_me = sum(num(x, 0) for x in m["attacks_on_me"].values()) >= 1 or any(
            num(x, -9) >= v.turn - 1 for x in m["threats_to_me"].values())
        if not v.guards_in_hand() and pressure_on_me and v.rng.chance(0.3):
            # Deceptive: we hold no guard. Labelled as the bluff it is.
            out.append({"channel": "public", "target_player_id": None,
                        "text": "I am sitting on a Riposte. Whoever swings at me pays for it.", "speech_act": "bluff"})
            pub += 1
        elif pub == 0:
            out.append({"channel": "public", "target_player_id": None, "text": v.rng.pick([
                "Long game, everyone. Pace yourselves.",
                "I remember who kept their word. So should you.",
                "Interesting table tonight.",
            ]), "speech_act": "neutral"})
            pub += 1
    return out


# ---------------------------------------------------------------------------------------------
# attacks

def said_to(v, target, extra, test):
    for s in list(v.speech) + list(extra):
        if s.get("player_id", v.id) == v.id and s.get("target_player_id") == target and test(s):
            return True
    return False


def names_third(v, target, text):
    low = (text or "").lower()
    for o in v.opps:
        pid = o["player_id"]
        if pid == target:
            continue
        if pid.lower() in low or (o.get("display_name") or "\0").lower() in low:
            return True
    return False


def choose_plan(v, target, channels, extra):
    """The first manipulation plan whose precondition holds, with a channel the card allows."""
    threat = said_to(v, target, extra, lambda s: s.get("speech_act") == "threat")
    cue = said_to(v, target, extra, lambda s: s.get("channel") == "private" and names_third(v, target, s.get("text")))
    bait = v.own_traps() > 0
    dom = v.tell(target, "dominance")
    trust = num((v.emo.get("trust") or {}).get(target), 0.2)
    public = [c for c in ("public", "mixed") if c in channels]
    if cue:
        return "betrayal_cue", ("private" if "private" in channels else channels[0]), True
    if threat:
        return "threat_framing", ("private" if "private" in channels and v.rng.chance(0.5) else channels[0]), True
    if bait:
        return "bait", ("private" if "private" in channels else channels[0]), True
    if public and dom is not None and dom > 0.05:
        return "status_challenge", public[0], True
    if public and trust < -0.05:
        return "public_isolation", public[0], True
    return "threat_framing", ("private" if "private" in channels else channels[0]), False


def kinetic_value(v, m, k, t, discard):
    repeat = 0.8 if k in m["kinetic_prev"] else 0.0
    if k == "tempo_swing":
        return min(2, t.get("tempo", 0)) * 0.55 - repeat
    if k == "forced_line":
        return 0.25 + (1.0 if v.own_traps() else 0.0) - repeat
    if k == "lockout":
        return (0.4 if t.get("locked_out") else 0.9) - repeat
    if k == "discard_pressure":
        return 0.45 * min(t.get("hand_count", 0), discard) - repeat
    if k == "combo_break":
        worth = 0.0
        for a in v.arena:
            if a.get("owner_player_id") != t["player_id"]:
                continue
            if a["card"].get("type") == "ritual":
                worth = max(worth, 3.0)
            elif a.get("face_down"):
                worth = max(worth, 1.2)
            else:
                worth = max(worth, 0.7)
        return worth - repeat
    return 0.0


def pick_kinetic(v, m, legal, t, applies, discard):
    ks = legal.get("kinetic_intents") or []
    if not ks:
        return None, 0.0
    if not applies:
        # Declared only (pressure cards): any fresh intent, so we are not "predictable".
        for i in range(len(ks)):
            k = ks[(v.turn + i) % len(ks)]
            if k not in m["kinetic_prev"] and k not in m["kinetic_now"]:
                return k, 0.0
        return ks[0], -0.5
    best, top = ks[0], -1e9
    for k in ks:
        val = kinetic_value(v, m, k, t, discard)
        if val > top:
            best, top = k, val
    return best, top


def predict_shift(v, t, emotion):
    fear, tilt, anger = v.tell(t["player_id"], "fear") or 0, v.tell(t["player_id"], "tilt") or 0, v.tell(t["player_id"], "anger") or 0
    if fear >= 0.4:
        return "defensive"
    if tilt >= 0.35:
        return "reckless"
    if t.get("hand_count", 0) <= 1:
        return "withdrawn"
    if anger >= 0.35:
        return "retaliate"
    return {"fear": "defensive", "tilt": "reckless", "overconfidence": "reckless", "anger": "retaliate"}.get(emotion, "retaliate")


def eval_attack(v, m, plan, legal, t, extra):
    spring = legal["kind"] == "activate"
    name = legal.get("name")
    damage = SPRING_DAMAGE if spring else DAMAGE.get(name, 1)
    affect = SPRING_AFFECT if spring else AFFECT.get(name, 0.2)
    applies = spring or legal.get("type") == "gambit"
    named = None
    if legal.get("needs_named_player"):
        named = plan.get("named") if plan.get("named") not in (None, t["player_id"]) else third_seat(v, t["player_id"])
        if not named or named not in {o["player_id"] for o in v.opps} or named == t["player_id"]:
            return None
    channels = legal.get("channels") or ["public"]
    mplan, channel, holds = choose_plan(v, t["player_id"], channels, extra)
    aligned = plan.get("target") == t["player_id"]
    emotion = plan["emotion"] if aligned else choose_emotion(v, t["player_id"])
    amp = 1 + 0.1 * t.get("exposure", 0)
    raw = damage * amp
    guard_odds = 1 - (1 - 15 / 120.0) ** t.get("hand_count", 0)
    dealt = raw - 0.6 * guard_odds * min(raw, 2.5)
    value = dealt
    if 0 < t.get("resolve", 12) <= round(raw):
        value += 2.5
    # the contest, roughly: power vs resistance with +-0.15 noise
    power = affect + (0.15 if holds else -0.10) + (0.10 if aligned else 0) + 0.05 * t.get("exposure", 0) + 0.1 * max(0, v.emotion("confidence"))
    resist = 0.45 + 0.1 * max(0, v.tell(t["player_id"], "confidence") or 0.2) + 0.15 * max(0, v.tell(t["player_id"], "dominance") or 0)
    margin = power - resist
    p_success = min(1.0, max(0.0, (margin - 0.1 + 0.15) / 0.3))
    p_fail = 1 - min(1.0, max(0.0, (margin + 0.15) / 0.3))
    value += affect * 3.6 * (p_success + 0.5 * (1 - p_success - p_fail)) - 0.9 * p_fail
    k, kval = pick_kinetic(v, m, legal, t, applies, DISCARD_COUNT.get(name, 1))
    value += kval
    traps = v.face_down(t["player_id"])
    if traps and (legal.get("type") == "gambit") and not spring:
        value -= 1.2 * (1 - (1 - 8 / 27.0) ** traps) * 3
    if traps and legal.get("type") == "pressure":
        value -= 1.2 * (1 - (1 - 6 / 27.0) ** traps)
    if name == "Overreach" and not spring:
        value -= 0.6 * 2 + 0.3 * v.me.get("exposure", 0)
    if name == "Humiliate":
        value += 0.3
    if name == "Whisper":
        value += 0.4
    if spring:
        value -= TRAP_HOLD.get(name, 0.5)
    value += 0.35 * max(-1.0, min(2.0, desirability(v, m, t))) + (v.aggression - 0.5) * 1.6 - 0.2
    attack_plan = {
        "kinetic_intent": k,
        "emotional_intent": emotion,
        "manipulation_plan": mplan,
        "delivery_channel": channel,
        "target_player_id": t["player_id"],
        "expected_behavior_shift": "%s: %s" % (predict_shift(v, t, emotion), "read from the tell and the pressure we put on %s" % v.name(t["player_id"])),
        "confidence": round(min(0.95, max(0.05, p_success)), 2),
    }
    return {"value": value, "target": t["player_id"], "named": named, "plan": attack_plan}


# ---------------------------------------------------------------------------------------------
# non-attack plays

def eval_support(v, m, legal):
    name, typ = legal.get("name"), legal.get("type")
    e = v.me.get("exposure", 0)
    fear = v.emotion("fear")
    if legal["kind"] == "activate":
        if typ != "ritual":
            return None
        return 0.3 + (0.45 * len(v.opps) if name == "Slow Burn" else 0.25 * max(0, 12 - v.me.get("resolve", 12)))
    deficit = max(0, 12 - v.me.get("resolve", 12))
    shaken = 1.0 if fear >= 0.5 else 0.0
    if name == "Composure":
        return 0.6 + 1.5 * max(0, v.emotion("tilt")) + 0.5 * shaken - (0.8 if v.own_arena("Composure") else 0)
    if name == "Poker Face":
        return 0.2 + 0.45 * min(3, e) + (0.3 if e >= 4 else 0) + 0.5 * shaken - (0.9 if v.own_arena("Poker Face") else 0)
    if name == "False Tell":
        return 0.5 + (0.4 if e >= 4 else 0) - (0.6 if v.own_arena("False Tell") else 0)
    if name in ("Snare", "Lockjaw", "Tell"):
        base = {"Snare": 1.3, "Lockjaw": 1.0, "Tell": 0.55}[name]
        if name == "Tell" and any(num(x, -9) >= v.turn - 1 for x in m["promises_to_me"].values()):
            base += 0.5  # someone gave us their word: a Tell punishes them if they break it
        return base - 0.45 * v.own_traps() + 0.4 * shaken
    if name == "Slow Burn":
        return 0.8 * len(v.opps) - 0.9 * v.own_arena("Slow Burn")
    if name == "Rebuild":
        return 0.5 + 0.4 * min(5, deficit + 1) + (0.5 if v.me.get("lives", 3) == 1 else 0) - v.own_arena("Rebuild")
    return None


def tempo_weight(tempo):
    return 0.6 if tempo <= 1 else 0.3 if tempo <= 3 else 0.12 if tempo <= 6 else 0.03


def candidates(v, m, plan, second, tempo, exclude, extra):
    out = []
    tw = tempo_weight(tempo)
    e = v.me.get("exposure", 0)
    extra_cost = (0.6 + (0.25 * e + 0.4 if e < 10 else 0) + (0.6 if v.c.get("compact") else 0)) if second else 0.0
    full_hand = 0.25 if len(v.hand) >= 7 else 0.0
    for legal in v.legal:
        if legal.get("kind") not in ("play_card", "activate"):
            continue
        if legal.get("tempo_cost", 0) > tempo or legal.get("card_id") in exclude:
            continue
        if legal.get("attack"):
            best = None
            for pid in legal.get("targets") or []:
                t = v.by_id.get(pid)
                if not t or promised(v, m, pid):
                    continue
                ev = eval_attack(v, m, plan, legal, t, extra)
                if ev and (best is None or ev["value"] > best["value"]):
                    best = ev
            if not best:
                continue
            value = best["value"]
            if plan.get("defend"):
                value -= 1.5
        else:
            s = eval_support(v, m, legal)
            if s is None:
                continue
            best, value = None, s
        value += -tw * legal.get("tempo_cost", 0) - extra_cost + (full_hand if legal["kind"] == "play_card" else 0)
        value += (v.rng.next() - 0.5) * 0.3
        out.append({"value": value, "legal": legal, "attack": best})
    rest = 0.0 if second else (0.3 + 0.2 * (v.me.get("exposure", 0) - 3) if v.me.get("exposure", 0) >= 3 else 0.0)
    out.append({"value": 0.1 + rest - 0.3 * v.aggression, "legal": None, "attack": None})
    out.sort(key=lambda c: -c["value"])
    return out


def answer_for(v, m, cand, card_id=None):
    legal = cand["legal"]
    if legal is None:
        return pass_answer()
    payload = {"card_id": card_id or legal["card_id"]}
    plan = None
    if cand["attack"]:
        a = cand["attack"]
        plan = a["plan"]
        payload["target_player_id"] = a["target"]
        if a["named"]:
            payload["named_player_id"] = a["named"]
        m["kinetic_now"].append(plan["kinetic_intent"])
        m["attacks_made"] = int(num(m.get("attacks_made"), 0)) + 1
    if legal["kind"] == "play_card" and legal.get("needs_chosen_emotion"):
        # our False Tell shows a face that invites the wrong read: fear draws attackers into our traps
        payload["chosen_emotion"] = "fear" if v.own_traps() else v.rng.pick(["dominance", "anger", "confidence"])
    out = {"selected_action": {"kind": legal["kind"], "payload": payload}}
    if plan:
        out["attack_plan"] = plan  # no plan: the key is left out (it defaults to null)
    return out


def pass_answer():
    return {"selected_action": {"kind": "pass", "payload": {}}}


def act(v, m):
    if v.c.get("reprompt"):
        return pass_answer(), "reprompt: pass"
    plan = plan_round(v, m)
    first = v.c.get("actions_left", 2) >= (1 if v.c.get("locked_out") else 2)
    cands = candidates(v, m, plan, not first, v.me.get("tempo", 0), set(), [])
    c = cands[0]
    # tilt spoils judgement: with probability = tilt take a near miss
    tilt = max(0.0, v.emotion("tilt"))
    if len(cands) > 1 and v.rng.chance(tilt * 0.8):
        c = cands[1]
    return answer_for(v, m, c), describe(c)


def describe(c):
    if c["legal"] is None:
        return "pass"
    if c["attack"]:
        p = c["attack"]["plan"]
        return "%s -> %s (%s, %s, %s)" % (c["legal"]["name"], p["target_player_id"], p["manipulation_plan"], p["emotional_intent"], p["kinetic_intent"])
    return "%s %s" % ("hasten" if c["legal"]["kind"] == "activate" else "play", c["legal"]["name"])


def other_copy(v, legal, used):
    """Another copy of the same card name in hand (legal_actions lists one per name)."""
    if legal["kind"] != "play_card":
        return None
    for c in v.hand:
        if c.get("name") == legal.get("name") and c.get("card_id") not in used:
            return c["card_id"]
    return None


def compact(v, m):
    if v.c.get("reprompt"):
        return dict(pass_answer(), speech_actions=[]), "reprompt: pass"
    plan = plan_round(v, m)
    speech = []
    if m.get("talked") != v.turn:
        speech = talk(v, m, plan)
        m["talked"] = v.turn
    extra = [dict(s, player_id=v.id) for s in speech]
    cands = candidates(v, m, plan, False, v.me.get("tempo", 0), set(), extra)
    c1 = cands[0]
    out = answer_for(v, m, c1)
    out["speech_actions"] = speech
    sp = secret_plan(v, m, plan)
    if sp["emotional_intent"]:
        out["secret_plan"] = sp  # an explicit plan keeps the alignment bonus
    note = describe(c1)
    if c1["legal"] is not None and v.c.get("actions_left", 2) >= 2:
        used = {c1["legal"]["card_id"]}
        tempo = v.me.get("tempo", 0) - c1["legal"].get("tempo_cost", 0)
        cands2 = candidates(v, m, plan, True, tempo, set(), extra)
        for c2 in cands2:
            if c2["legal"] is None:
                break
            cid = c2["legal"]["card_id"]
            if cid in used:
                cid = other_copy(v, c2["legal"], used)
                if not cid:
                    continue
            # a follow-up never attacks a seat we promised peace to, and never repeats an attack's intent
            if c2["attack"] and c1["attack"] and c2["attack"]["plan"]["kinetic_intent"] == c1["attack"]["plan"]["kinetic_intent"] \
                    and c2["legal"].get("type") == "gambit":
                continue
            out["follow_up"] = answer_for(v, m, c2, cid)
            note += " + " + describe(c2)
            break
    return out, note


def react(v, m):
    if v.c.get("reprompt"):
        return {}, "reprompt: no guard"
    inc = v.c.get("incoming_attack") or {}
    brace = riposte = None
    for a in v.legal:
        if a.get("kind") != "reaction":
            continue
        if a.get("name") == "Brace" and not brace:
            brace = a["card_id"]
        if a.get("name") == "Riposte" and not riposte:
            riposte = a["card_id"]
    if not brace and not riposte:
        return {}, "no guard to play"
    raw = DAMAGE.get(inc.get("card_name"), SPRING_DAMAGE) * (1 + 0.1 * v.me.get("exposure", 0))
    guards = len(v.guards_in_hand())
    attacker = inc.get("attacker_player_id")
    want = (raw >= 1.5 or v.me.get("resolve", 12) <= round(raw) + 2 or guards >= 2 or len(v.hand) >= 7
            or v.emotion("fear") >= 0.5 or v.rng.chance(0.35 + 0.3 * v.aggression))
    if not want:
        return {}, "saving the guard"
    # Riposte hits back for 2: use it on the seat we hold a grudge against, or when it covers the hit
    hit_back = riposte and (attacker == m.get("grudge") or raw <= 2.5 or not brace)
    choice = riposte if hit_back else (brace or riposte)
    return {"card_id": choice}, "guard %s vs %s from %s" % ("Riposte" if choice == riposte else "Brace", inc.get("card_name"), attacker)


def reflect(v, m):
    m["reflections"] = int(num(m.get("reflections"), 0)) + 1
    notes = []
    g = m.get("grudge")
    if g:
        notes.append("turn %d: grudge on %s (attacks on me %.1f, broken promises %d)" % (
            v.turn, v.name(g), num(m["attacks_on_me"].get(g), 0), int(num(m["broken"].get(g), 0))))
    liars = sorted(pid for pid, n in m["broken"].items() if num(n, 0) > 0)
    if liars:
        notes.append("promise breakers: " + ", ".join(v.name(p) for p in liars))
    m["notes"] = (m["notes"] + notes)[-5:]
    return {"memory_updates": notes[:3]}, "; ".join(notes) or "quiet round"


# ---------------------------------------------------------------------------------------------

def main():
    raw = sys.stdin.readline()
    try:
        msg = json.loads(raw)
        req = msg["input"]
        cfg = msg.get("config") or {}
        request_id = msg.get("requestId")
    except Exception as exc:  # noqa: BLE001 - a malformed request is a controlled failure
        sys.stderr.write("python-example: bad input: %r\n" % (exc,))
        emit({"type": "error", "errorCode": "bad_input", "errorMessage": str(exc) or "unreadable input"})
        emit({"type": "done", "ok": False, "summary": "bad input"})
        return
    mem_in = ((req.get("player_private_view") or {}).get("memory_state") or {}).get("agent") or {}
    m = load_memory(mem_in)
    v = View(req, cfg if isinstance(cfg, dict) else {}, mem_in)
    roll_round(v, m)
    observe(v, m)
    window = v.window
    if window == "intent":
        decision = secret_plan(v, m, plan_round(v, m))
        ei = decision["emotional_intent"]
        note = "plan %s, %s" % (decision["tactical_intent"], "%s on %s" % (ei["emotion"], ei["target_player_id"]) if ei else "no emotional intent")
    elif window == "talk":
        if v.c.get("reprompt") or m.get("talked") == v.turn:
            decision, note = {"speech_actions": []}, "silent"
        else:
            decision = {"speech_actions": talk(v, m, plan_round(v, m))}
            m["talked"] = v.turn
            note = "%d statements" % len(decision["speech_actions"])
    elif window == "action":
        decision, note = compact(v, m) if v.c.get("compact") else act(v, m)
    elif window == "reaction":
        decision, note = react(v, m)
    elif window == "reflect":
        decision, note = reflect(v, m)
    else:
        decision, note = {}, "unknown window %s" % window
    emit({"type": "log", "level": "info", "message": "%s: %s" % (window, note),
          "fields": {"turn": v.turn, "grudge": m.get("grudge"), "aggression": v.aggression}})
    emit({"type": "state_patch", "patch": {"decision": decision, "memory": m}})
    emit({"type": "done", "ok": True, "summary": note[:200]})
    _ = request_id


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:  # noqa: BLE001 - never crash without telling the runtime
        import traceback
        traceback.print_exc(file=sys.stderr)
        emit({"type": "error", "errorCode": "agent_crashed", "errorMessage": repr(exc)[:300] or "crash"})
        emit({"type": "done", "ok": False, "summary": "python-example crashed"})
