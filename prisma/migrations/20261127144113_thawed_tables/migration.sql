-- CreateTable
CREATE TABLE "thawed_events" (
    "game_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "event_id" TEXT NOT NULL,
    "schema_version" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,
    "phase" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "player_id" TEXT,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "payload" JSON NOT NULL,
    "visibility" JSON NOT NULL,
    "rng" JSON,
    "annotations" JSON,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "thawed_events_pkey" PRIMARY KEY ("game_id","seq")
);

-- CreateTable
CREATE TABLE "thawed_actions" (
    "game_id" TEXT NOT NULL,
    "seq_before" INTEGER NOT NULL,
    "player_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "turn" INTEGER NOT NULL,
    "phase" TEXT NOT NULL,
    "window" TEXT NOT NULL,
    "raw" JSONB,
    "validated" JSONB,
    "accepted" BOOLEAN NOT NULL,
    "rejection_code" TEXT,
    "ts" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "thawed_actions_pkey" PRIMARY KEY ("game_id","seq_before","player_id","attempt")
);

-- CreateIndex
CREATE INDEX "thawed_events_game_id_turn_phase_idx" ON "thawed_events"("game_id", "turn", "phase");

-- CreateIndex
CREATE INDEX "thawed_events_game_id_player_id_turn_idx" ON "thawed_events"("game_id", "player_id", "turn");

-- CreateIndex
CREATE INDEX "thawed_actions_game_id_player_id_turn_idx" ON "thawed_actions"("game_id", "player_id", "turn");

-- AddForeignKey
ALTER TABLE "thawed_events" ADD CONSTRAINT "thawed_events_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thawed_actions" ADD CONSTRAINT "thawed_actions_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;
