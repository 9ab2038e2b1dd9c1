#!/usr/bin/env python3
"""plan-example / perceive: what the seat itself can see - its position, hand and options.

stdin : {"requestId", "tool": "perceive", "operation", "input": {...TurnPlanRequest fields...,
         "params": {"low_resolve": 7}, "dependencies": {}}}
stdout: log, state_patch {"perception": {...}}, done.  Pure function of stdin.
"""

import json
import sys


def emit(ev):
    out = {"version": "0"}
    out.update(ev)
    sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")


def perceive(inp):
    params = inp.get("params") or {}
    me_id = inp["player_id"]
    world = inp.get("public_world_view") or {}
    priv = inp.get("player_private_view") or {}
    c = inp.get("constraints") or {}
    players = world.get("players") or []
    me = next((p for p in players if p.get("player_id") == me_id), {})
    emo = priv.get("emotion_state") or {}
    hand = priv.get("hand") or []
    arena = (world.get("arena") or {}).get("cards") or []

    def count(pred):
        return sum(1 for h in hand if pred(h))

    options = []
    for a in inp.get("legal_actions") or []:
        if a.get("kind") in ("play_card", "activate"):
            options.append({k: a.get(k) for k in (
                "kind", "card_id", "name", "type", "tempo_cost", "attack", "targets", "kinetic_intents",
                "channels", "needs_named_player", "needs_chosen_emotion")})
    guards = [a for a in inp.get("legal_actions") or [] if a.get("kind") == "reaction"]
    own = [a for a in arena if a.get("owner_player_id") == me_id]
    my_speech = [s for s in world.get("round_speech") or [] if s.get("player_id") == me_id]
    low = params.get("low_resolve", 7)
    resolve = me.get("resolve", 12)
    return {
        "me": me_id,
        "turn": inp.get("turn"),
        "window": inp.get("window"),
        "compact": bool(c.get("compact")),
        "reprompt": c.get("reprompt"),
        "actions_left": c.get("actions_left", 0),
        "locked_out": bool(c.get("locked_out")),
        "forced_target": c.get("forced_target"),
        "incoming": c.get("incoming_attack"),
        "resolve": resolve,
        "lives": me.get("lives", 3),
        "tempo": me.get("tempo", 0),
        "exposure": me.get("exposure", 0),
        "hand_size": len(hand),
        "hand_names": sorted(h.get("name", "") for h in hand),
        "attack_cards": count(lambda h: h.get("type") in ("gambit", "pressure")),
        "guard_cards": count(lambda h: h.get("name") in ("Brace", "Riposte")),
        "own_traps": sum(1 for a in own if (a.get("card") or {}).get("type") == "trap"),
        "own_arena": sorted((a.get("card") or {}).get("name", "") for a in own),
        "options": options,
        "guards": [{"card_id": g["card_id"], "name": g.get("name"), "tempo_cost": g.get("tempo_cost", 0)} for g in guards],
        "my_speech": [{"channel": s.get("channel"), "target": s.get("target_player_id"), "act": s.get("speech_act"),
                       "text": s.get("text")} for s in my_speech],
        "mood": {k: emo.get(k, 0) for k in ("fear", "tilt", "anger", "confidence")},
        "danger": resolve <= low or (me.get("lives", 3) == 1 and resolve <= low + 2),
    }


def main():
    try:
        msg = json.loads(sys.stdin.readline())
        p = perceive(msg["input"])
    except Exception as exc:  # noqa: BLE001
        sys.stderr.write("perceive: %r\n" % (exc,))
        emit({"type": "error", "errorCode": "perceive_failed", "errorMessage": repr(exc)[:300] or "failed"})
        emit({"type": "done", "ok": False})
        return
    emit({"type": "log", "level": "debug", "message": "perceived %s: resolve %s, tempo %s, exposure %s, %d options" % (
        p["window"], p["resolve"], p["tempo"], p["exposure"], len(p["options"]))})
    emit({"type": "state_patch", "patch": {"perception": p}})
    emit({"type": "done", "ok": True})


if __name__ == "__main__":
    main()
