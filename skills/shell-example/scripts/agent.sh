#!/bin/sh
# shell-example: a minimal Tiltyard agent in POSIX sh + awk (no jq, no python).
#
# stdin : one JSON line {"requestId","tool","operation","input":<TurnPlanRequest>,"config","workDir"}
# stdout: NDJSON tool-protocol events: a log line, one state_patch {"decision", "memory"}, done.
#
# Policy (fixed and always legal):
#   intent   -> {"tactical_intent":"build","emotional_intent":{"emotion":"fear","target_player_id":<first listed seat>}}
#   talk     -> one short public neutral statement
#   action   -> the first non-attacking card in legal_actions (play_card, else a ritual to hasten),
#               else pass; compact windows add the statement and the fixed secret plan
#   reaction -> never ({}: no card)
#   reflect  -> one memory note and a counter kept in memory ("shell_reflections")
# On a reprompt (constraints.reprompt set) it passes / stays silent.
# Everything is a pure function of stdin, so the same input gives the same output.

LC_ALL=C
export LC_ALL

# Only the first line is the request: head returns as soon as it has it, even if stdin stays open.
head -n 1 | awk '
function jstr(key,    re, s) {
  # the string value of the first "key":"..." in the input (values here never contain quotes)
  re = "\"" key "\"[ ]*:[ ]*\"[^\"]*\""
  if (!match(all, re)) return ""
  s = substr(all, RSTART, RLENGTH)
  sub(/^"[^"]*"[ ]*:[ ]*"/, "", s)
  sub(/"$/, "", s)
  return s
}
function jnum(key, src,    re, s) {
  re = "\"" key "\"[ ]*:[ ]*[0-9]+"
  if (!match(src, re)) return -1
  s = substr(src, RSTART, RLENGTH)
  sub(/^.*:[ ]*/, "", s)
  return s + 0
}
function field(obj, key,    re, s) {
  # a scalar value (string without quotes, or a literal) of key inside one flat JSON object
  re = "\"" key "\"[ ]*:[ ]*(\"[^\"]*\"|[a-z0-9.-]+)"
  if (!match(obj, re)) return ""
  s = substr(obj, RSTART, RLENGTH)
  sub(/^"[^"]*"[ ]*:[ ]*/, "", s)
  gsub(/"/, "", s)
  return s
}
function legal_objects(    start, i, n, c, depth, instr, esc, obj, count) {
  # splits the legal_actions array into its top-level objects: objs[1..count]
  if (!match(all, /"legal_actions"[ ]*:[ ]*\[/)) return 0
  start = RSTART + RLENGTH
  n = length(all)
  depth = 0; instr = 0; esc = 0; obj = ""; count = 0
  for (i = start; i <= n; i++) {
    c = substr(all, i, 1)
    if (instr) {
      if (depth > 0) obj = obj c
      if (esc) esc = 0
      else if (c == "\\") esc = 1
      else if (c == "\"") instr = 0
      continue
    }
    if (c == "\"") { instr = 1; if (depth > 0) obj = obj c; continue }
    if (c == "{" || c == "[") { depth++; obj = obj c; continue }
    if (c == "}" || c == "]") {
      if (depth == 0) break            # the closing ] of legal_actions
      depth--; obj = obj c
      if (depth == 0) { objs[++count] = obj; obj = "" }
      continue
    }
    if (depth > 0) obj = obj c
  }
  return count
}
function emit(s) { printf "%s\n", s }

{ all = all $0 }

END {
  op = jstr("operation")
  rid = jstr("requestId")
  compact = (all ~ /"compact"[ ]*:[ ]*true/)
  reprompt = !(all ~ /"reprompt"[ ]*:[ ]*null/)

  # memory: the counter lives in input.player_private_view.memory_state.agent
  count = 0
  if (match(all, /"shell_reflections"[ ]*:[ ]*[0-9]+/)) count = jnum("shell_reflections", substr(all, RSTART, RLENGTH))

  say = "{\"channel\":\"public\",\"target_player_id\":null,\"text\":\"Steady hands. I am building, not brawling.\",\"speech_act\":\"neutral\"}"
  # The fixed plan: build, with fear as the emotional intent on the first seat the window lists.
  # (emotional_intent may be null, but a runtime that drops nulls while merging patches would lose
  # the key and the plan would be defaulted, so we name a seat whenever there is one.)
  first = ""
  if (match(all, /"targets"[ ]*:[ ]*\["[^"]+"/)) {
    first = substr(all, RSTART, RLENGTH); sub(/^.*\["/, "", first); sub(/"$/, "", first)
  }
  if (first == "") plan = "{\"tactical_intent\":\"build\",\"emotional_intent\":null}"
  else plan = "{\"tactical_intent\":\"build\",\"emotional_intent\":{\"emotion\":\"fear\",\"target_player_id\":\"" first "\"}}"
  pass = "{\"selected_action\":{\"kind\":\"pass\",\"payload\":{}}}"
  note = ""

  if (op == "intent") {
    decision = plan; note = "fixed plan: build"
  } else if (op == "talk") {
    if (reprompt) { decision = "{\"speech_actions\":[]}"; note = "silent (reprompt)" }
    else { decision = "{\"speech_actions\":[" say "]}"; note = "one public statement" }
  } else if (op == "action") {
    pick = ""; kind = ""; emo = 0
    if (!reprompt) {
      n = legal_objects()
      for (i = 1; i <= n && pick == ""; i++) {
        if (field(objs[i], "kind") == "play_card" && field(objs[i], "attack") == "false") {
          pick = field(objs[i], "card_id"); kind = "play_card"; name = field(objs[i], "name")
          emo = (field(objs[i], "needs_chosen_emotion") == "true")
        }
      }
      for (i = 1; i <= n && pick == ""; i++) {
        if (field(objs[i], "kind") == "activate" && field(objs[i], "attack") == "false") {
          pick = field(objs[i], "card_id"); kind = "activate"; name = field(objs[i], "name")
        }
      }
    }
    if (pick == "") { act = pass; note = reprompt ? "pass (reprompt)" : "pass: no non-attacking card" }
    else {
      payload = "{\"card_id\":\"" pick "\"" (emo ? ",\"chosen_emotion\":\"confidence\"" : "") "}"
      act = "{\"selected_action\":{\"kind\":\"" kind "\",\"payload\":" payload "}}"
      note = kind " " name
    }
    if (compact && !reprompt) {
      sub(/}$/, "", act)
      decision = act ",\"speech_actions\":[" say "],\"secret_plan\":" plan "}"
    } else decision = act
  } else if (op == "reaction") {
    decision = "{}"; note = "never reacts"
  } else if (op == "reflect") {
    count++
    decision = "{\"memory_updates\":[\"shell-example reflection " count "\"]}"
    note = "reflection " count
  } else {
    # not a request we understand: a controlled failure (the runtime falls back)
    emit("{\"version\":\"0\",\"type\":\"error\",\"errorCode\":\"bad_input\",\"errorMessage\":\"no known operation in the request\"}")
    emit("{\"version\":\"0\",\"type\":\"done\",\"ok\":false}")
    exit 0
  }

  emit("{\"version\":\"0\",\"type\":\"log\",\"level\":\"info\",\"message\":\"" op ": " note "\",\"fields\":{\"reflections\":" count "}}")
  emit("{\"version\":\"0\",\"type\":\"state_patch\",\"requestId\":\"" rid "\",\"patch\":{\"decision\":" decision ",\"memory\":{\"shell_reflections\":" count "}}}")
  emit("{\"version\":\"0\",\"type\":\"done\",\"ok\":true}")
}
'
