#!/usr/bin/env python3
"""plan-example / deliberate: the sentinel's decision, from perceive's and appraise's outputs.

stdin : {"requestId", "tool": "deliberate", "operation", "input": {...TurnPlanRequest fields...,
         "params": {"counter_threshold": 1.0},
         "dependencies": {"perceive": {"perception": {...}}, "appraise": {"appraisal": {...}} | null}}}
stdout: log, state_patch {"decision": <the window's answer>, "memory": {...}}, done.

The sentinel builds defences first: traps, masks when exposed, Composure when tilted, Rebuild when
hurt. It guards every attack it can. It hits back at whoever threatens it, or at a seat it can
finish off, with a full AttackPlan. It keeps its promises. Without an appraisal (appraise failed)
it falls back on its own memory of who attacked it. Deterministic: no clock, no randomness.
"""

import json
import sys

DAMAGE = {"Feint": 2, "Overreach": 4, "Sever": 1, "Strip": 1, "Needle": 1, "Humiliate": 1, "Whisper": 0}
MEMORY_VERSION = 1


def emit(ev):
    out = {"version": "0"}
    out.update(ev)
    sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")


def num(x, d=0.0):
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else d


def load_memory(raw):
    m = {"v": MEMORY_VERSION, "turn": -1, "hostile": {}, "seen": [], "promises": {}, "kprev": [], "know": [],
         "talked": -1, "reflections": 0, "guards_played": 0, "counters": 0}
    if isinstance(raw, dict) and raw.get("v") == MEMORY_VERSION:
        for k in m:
            if raw.get(k) is not None:
                m[k] = raw[k]
    for k in ("hostile", "promises"):
        if not isinstance(m[k], dict):
            m[k] = {}
    for k in ("seen", "kprev", "know"):
        if not isinstance(m[k], list):
            m[k] = []
    return m


class Ctx:
    def __init__(self, inp, mem):
        self.inp = inp
        deps = inp.get("dependencies") or {}
        self.p = ((deps.get("perceive") or {}).get("perception")) or {}
        self.a = ((deps.get("appraise") or {}).get("appraisal")) if deps.get("appraise") else None
        self.params = inp.get("params") or {}
        self.m = mem
        self.me = inp["player_id"]
        self.turn = inp.get("turn", 0)
        self.world = inp.get("public_world_view") or {}
        self.players = {p["player_id"]: p for p in self.world.get("players") or []}
        self.opps = sorted(pid for pid, p in self.players.items() if p.get("alive") and pid != self.me)

    def name(self, pid):
        return (self.players.get(pid) or {}).get("display_name", pid)

    def promised(self, pid):
        return num(self.m["promises"].get(pid), -9) >= self.turn

    def threat(self, pid):
        """Appraised threat, or our own memory of who attacked us when appraise failed."""
        mem = num(self.m["hostile"].get(pid))
        if self.a and pid in (self.a.get("opponents") or {}):
            return num(self.a["opponents"][pid].get("threat")) + 0.5 * mem
        return mem

    def mood(self, pid):
        if self.a and pid in (self.a.get("opponents") or {}):
            return self.a["opponents"][pid].get("mood", "unknown")
        return "unknown"

    def top_threat(self):
        forced = self.p.get("forced_target")
        if forced in self.opps:
            return forced
        best, top = None, -1e9
        for pid in self.opps:
            if self.promised(pid):
                continue
            t = self.threat(pid)
            if t > top:
                best, top = pid, t
        return best


def roll(ctx):
    m = ctx.m
    if m["turn"] != ctx.turn:
        m["kprev"] = m["know"] if m["turn"] == ctx.turn - 1 else []
        m["know"] = []
        m["seen"] = []
        # decay, never drop: memory is deep-merged by the runtime, so a dropped key would come back stale
        m["hostile"] = {k: round(num(v) * 0.6, 3) for k, v in sorted(m["hostile"].items())}
        m["turn"] = ctx.turn
    hits = [(e.get("action_id"), e.get("player_id")) for e in ctx.world.get("stack") or []
            if e.get("target_player_id") == ctx.me and e.get("player_id") != ctx.me]
    inc = ctx.p.get("incoming")
    if inc:
        hits.append((inc.get("action_id"), inc.get("attacker_player_id")))
    for aid, who in hits:
        if aid and who and aid not in m["seen"]:
            m["seen"].append(aid)
            m["hostile"][who] = round(num(m["hostile"].get(who)) + 1.0, 3)


def emotion_for(ctx, pid):
    return {"afraid": "fear", "tilted": "tilt", "angry": "tilt", "confident": "shame"}.get(ctx.mood(pid), "fear")


def secret_plan(ctx):
    # emotional_intent is required and nullable: name a seat whenever one is alive, so a runtime that
    # drops nulls while merging patches cannot turn the plan invalid.
    t = ctx.top_threat() or (ctx.opps[0] if ctx.opps else None)
    attacks = num(ctx.p.get("attack_cards")) > 0
    tactical = "defend"
    if attacks and t and ctx.threat(t) >= num(ctx.params.get("counter_threshold"), 1.0):
        tactical = "forced_line" if num(ctx.p.get("own_traps")) else "lockout"
    return {"tactical_intent": tactical,
            "emotional_intent": {"emotion": emotion_for(ctx, t), "target_player_id": t} if t else None}


def talk(ctx):
    out = []
    t = ctx.top_threat()
    hostile = t and ctx.threat(t) >= num(ctx.params.get("counter_threshold"), 1.0)
    if hostile and num(ctx.p.get("attack_cards")) > 0:
        # honest: we do mean to hit back this round
        out.append({"channel": "public", "target_player_id": t, "speech_act": "threat",
                    "text": "%s, you started this. Hit me again and I hit back harder." % ctx.name(t)})
    elif hostile and num(ctx.p.get("guard_cards")) == 0:
        # deceptive: no guard in hand
        out.append({"channel": "public", "target_player_id": t, "speech_act": "bluff",
                    "text": "Go on, %s. My guard is up and it bites." % ctx.name(t)})
    else:
        out.append({"channel": "public", "target_player_id": None, "speech_act": "neutral",
                    "text": "I am not looking for a fight. I will finish the ones that find me."})
    # a kept promise to the calmest seat, if there are enough seats to spare one
    calm = [pid for pid in ctx.opps if pid != t and ctx.threat(pid) < 0.5]
    if calm and len(ctx.opps) >= 2 and not ctx.p.get("forced_target"):
        calm.sort(key=lambda pid: (ctx.threat(pid), pid))
        p = calm[0]
        out.append({"channel": "private", "target_player_id": p, "speech_act": "promise",
                    "text": "%s, you leave me be and I leave you be. This round and the next." % ctx.name(p)})
        ctx.m["promises"][p] = ctx.turn + 1
    return out


def support_value(ctx, o):
    name, p = o.get("name"), ctx.p
    exp, res = num(p.get("exposure")), num(p.get("resolve"), 12)
    mood = p.get("mood") or {}
    own = p.get("own_arena") or []
    if o["kind"] == "activate":
        return 1.0 if o.get("type") == "ritual" else None
    if name in ("Snare", "Lockjaw", "Tell"):
        return {"Snare": 2.0, "Lockjaw": 1.6, "Tell": 1.0}[name] - 0.7 * num(p.get("own_traps"))
    if name == "Poker Face":
        return (0.6 + 0.5 * exp if exp >= 2 else 0.3) - (1.5 if "Poker Face" in own else 0)
    if name == "False Tell":
        return 0.7 - (0.8 if "False Tell" in own else 0)
    if name == "Composure":
        return 0.8 + 2.0 * max(0.0, num(mood.get("tilt"))) - (1.0 if "Composure" in own else 0)
    if name == "Rebuild":
        return (0.6 + 0.35 * min(6, 12 - res) + (0.8 if p.get("danger") else 0)) - (1.2 if "Rebuild" in own else 0)
    if name == "Slow Burn":
        return 0.7 * len(ctx.opps) - (1.0 if "Slow Burn" in own else 0)
    return None


def attack_plan_for(ctx, o, t, extra):
    spring = o["kind"] == "activate"
    channels = o.get("channels") or ["public"]
    said = list(ctx.p.get("my_speech") or []) + extra
    threatened = any(s.get("target") == t and s.get("act") == "threat" for s in said)
    if threatened:
        mplan = "threat_framing"
    elif num(ctx.p.get("own_traps")):
        mplan = "bait"
    else:
        mplan = "threat_framing"
    channel = "private" if "private" in channels else channels[0]
    ks = o.get("kinetic_intents") or []
    applies = spring or o.get("type") == "gambit"
    pref = (["forced_line", "lockout", "tempo_swing", "discard_pressure", "combo_break"] if num(ctx.p.get("own_traps"))
            else ["lockout", "tempo_swing", "forced_line", "discard_pressure", "combo_break"])
    used = set(ctx.m["kprev"]) | (set(ctx.m["know"]) if not applies else set())
    k = next((x for x in pref if x in ks and x not in used), None) or next((x for x in pref if x in ks), ks[0])
    mood = ctx.mood(t)
    shift = "defensive" if mood == "afraid" else "reckless" if mood == "tilted" else "retaliate"
    return {
        "kinetic_intent": k,
        "emotional_intent": emotion_for(ctx, t),
        "manipulation_plan": mplan,
        "delivery_channel": channel,
        "target_player_id": t,
        "expected_behavior_shift": "%s: %s hit us first; we expect it to answer in kind" % (shift, ctx.name(t)),
        "confidence": 0.6 if threatened or mplan == "bait" else 0.35,
    }


def options(ctx, second, tempo, exclude, extra):
    out = []
    thr = num(ctx.params.get("counter_threshold"), 1.0)
    for o in ctx.p.get("options") or []:
        if num(o.get("tempo_cost")) > tempo or o.get("card_id") in exclude:
            continue
        if o.get("attack"):
            best = None
            for t in o.get("targets") or []:
                if ctx.promised(t):
                    continue
                tp = ctx.players.get(t) or {}
                dmg = (1 if o["kind"] == "activate" else DAMAGE.get(o.get("name"), 1)) * (1 + 0.1 * num(tp.get("exposure")))
                lethal = 0 < num(tp.get("resolve"), 12) <= round(dmg)
                th = ctx.threat(t)
                if th < thr and not lethal:
                    continue  # the sentinel does not start fights
                v = 0.8 * dmg + 0.6 * th + (3.0 if lethal else 0) - (0.9 if o.get("name") == "Overreach" else 0)
                if o["kind"] == "activate":
                    v -= 1.0  # a sprung trap no longer guards us
                if best is None or v > best[0]:
                    best = (v, t)
            if best:
                out.append((best[0] - (1.2 if second else 0), o, best[1]))
        else:
            v = support_value(ctx, o)
            if v is not None:
                out.append((v - (0.9 + 0.3 * num(ctx.p.get("exposure")) if second else 0), o, None))
    out.sort(key=lambda x: (-x[0], x[1].get("card_id") or ""))
    return out


def answer(ctx, choice, extra, card_id=None):
    v, o, t = choice
    payload = {"card_id": card_id or o["card_id"]}
    plan = None
    if o.get("attack"):
        plan = attack_plan_for(ctx, o, t, extra)
        payload["target_player_id"] = t
        if o.get("needs_named_player"):
            payload["named_player_id"] = next((p for p in ctx.opps if p != t), None)
        ctx.m["know"].append(plan["kinetic_intent"])
        ctx.m["counters"] = int(num(ctx.m.get("counters"))) + 1
    if o["kind"] == "play_card" and o.get("needs_chosen_emotion"):
        payload["chosen_emotion"] = "dominance"
    out = {"selected_action": {"kind": o["kind"], "payload": payload}}
    if plan:
        out["attack_plan"] = plan  # left out otherwise (defaults to null)
    return out


PASS = {"selected_action": {"kind": "pass", "payload": {}}}


def label(choice):
    if not choice:
        return "pass"
    v, o, t = choice
    return "%s%s (%.2f)" % (o.get("name"), " -> " + t if t else "", v)


def act(ctx):
    if ctx.p.get("reprompt"):
        return PASS, "reprompt: pass"
    second = num(ctx.p.get("actions_left"), 2) < (1 if ctx.p.get("locked_out") else 2)
    opts = options(ctx, second, num(ctx.p.get("tempo")), set(), [])
    bar = 0.5 if not second else 0.3
    if not opts or opts[0][0] < bar:
        return PASS, "nothing worth it: pass"
    return answer(ctx, opts[0], []), label(opts[0])


def other_copy(ctx, o, used):
    if o["kind"] != "play_card":
        return None
    for h in (ctx.inp.get("player_private_view") or {}).get("hand") or []:
        if h.get("name") == o.get("name") and h.get("card_id") not in used:
            return h["card_id"]
    return None


def with_plan(ctx, ans):
    """An explicit secret plan (keeps the alignment bonus); left out if it would carry a null."""
    sp = secret_plan(ctx)
    if sp["emotional_intent"]:
        ans["secret_plan"] = sp
    return ans


def compact(ctx):
    if ctx.p.get("reprompt"):
        return dict(PASS, speech_actions=[]), "reprompt: pass"
    speech = talk(ctx) if ctx.m.get("talked") != ctx.turn else []
    ctx.m["talked"] = ctx.turn
    extra = [{"target": s["target_player_id"], "act": s["speech_act"]} for s in speech]
    opts = options(ctx, False, num(ctx.p.get("tempo")), set(), extra)
    if not opts or opts[0][0] < 0.5:
        return with_plan(ctx, dict(PASS, speech_actions=speech)), "pass"
    first = opts[0]
    ans = with_plan(ctx, answer(ctx, first, extra))
    ans["speech_actions"] = speech
    note = label(first)
    if num(ctx.p.get("actions_left"), 2) >= 2 and num(ctx.p.get("exposure")) < 2:
        used = {first[1]["card_id"]}
        for c in options(ctx, True, num(ctx.p.get("tempo")) - num(first[1].get("tempo_cost")), set(), extra):
            if c[0] < 0.6 or c[1].get("attack"):
                continue  # only a defensive follow-up, chosen blind
            cid = c[1]["card_id"] if c[1]["card_id"] not in used else other_copy(ctx, c[1], used)
            if not cid:
                continue
            ans["follow_up"] = answer(ctx, c, extra, cid)
            note += " + " + label(c)
            break
    return ans, note


def react(ctx):
    guards = ctx.p.get("guards") or []
    if ctx.p.get("reprompt") or not guards:
        return {}, "no guard"
    inc = ctx.p.get("incoming") or {}
    brace = next((g for g in guards if g.get("name") == "Brace"), None)
    riposte = next((g for g in guards if g.get("name") == "Riposte"), None)
    attacker = inc.get("attacker_player_id")
    pick = riposte if riposte and (not brace or (num(ctx.p.get("tempo")) >= 2 and DAMAGE.get(inc.get("card_name"), 1) <= 2)) else brace
    ctx.m["guards_played"] = int(num(ctx.m.get("guards_played"))) + 1
    return {"card_id": pick["card_id"]}, "%s against %s from %s" % (pick.get("name"), inc.get("card_name"), attacker)


def reflect(ctx):
    ctx.m["reflections"] = int(num(ctx.m.get("reflections"))) + 1
    t = ctx.top_threat()
    notes = []
    if t and ctx.threat(t) > 0.3:
        notes.append("turn %d: top threat %s (%.2f, mood %s)" % (ctx.turn, ctx.name(t), ctx.threat(t), ctx.mood(t)))
    return {"memory_updates": notes}, "; ".join(notes) or "calm round"


def main():
    try:
        msg = json.loads(sys.stdin.readline())
        inp = msg["input"]
    except Exception as exc:  # noqa: BLE001
        emit({"type": "error", "errorCode": "bad_input", "errorMessage": repr(exc)[:300] or "bad input"})
        emit({"type": "done", "ok": False})
        return
    mem = load_memory(((inp.get("player_private_view") or {}).get("memory_state") or {}).get("agent"))
    ctx = Ctx(inp, mem)
    if not ctx.p:
        emit({"type": "error", "errorCode": "no_perception", "errorMessage": "perceive output missing"})
        emit({"type": "done", "ok": False})
        return
    roll(ctx)
    w = inp.get("window")
    if w == "intent":
        decision = secret_plan(ctx)
        note = "plan %s" % json.dumps(decision["emotional_intent"])
    elif w == "talk":
        if ctx.p.get("reprompt") or mem.get("talked") == ctx.turn:
            decision, note = {"speech_actions": []}, "silent"
        else:
            decision = {"speech_actions": talk(ctx)}
            mem["talked"] = ctx.turn
            note = "%d lines" % len(decision["speech_actions"])
    elif w == "action":
        decision, note = compact(ctx) if ctx.p.get("compact") else act(ctx)
    elif w == "reaction":
        decision, note = react(ctx)
    elif w == "reflect":
        decision, note = reflect(ctx)
    else:
        decision, note = {}, "unknown window"
    emit({"type": "log", "level": "info", "message": "%s: %s" % (w, note),
          "fields": {"appraisal": ctx.a is not None, "top_threat": ctx.top_threat()}})
    emit({"type": "state_patch", "patch": {"decision": decision, "memory": mem}})
    emit({"type": "done", "ok": True})


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:  # noqa: BLE001
        import traceback
        traceback.print_exc(file=sys.stderr)
        emit({"type": "error", "errorCode": "deliberate_crashed", "errorMessage": repr(exc)[:300] or "crash"})
        emit({"type": "done", "ok": False})
