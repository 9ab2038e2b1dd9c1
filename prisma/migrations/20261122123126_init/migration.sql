-- CreateTable
CREATE TABLE "games" (
    "game_id" TEXT NOT NULL,
    "seed" BIGINT NOT NULL,
    "config" JSONB NOT NULL,
    "rules_version" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "seats" JSONB NOT NULL DEFAULT '[]',
    "last_seq" INTEGER NOT NULL DEFAULT 0,
    "last_hash" TEXT NOT NULL,
    "placements" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "games_pkey" PRIMARY KEY ("game_id")
);

-- CreateTable
CREATE TABLE "events" (
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
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("game_id","seq")
);

-- CreateTable
CREATE TABLE "snapshots" (
    "game_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "state" JSON NOT NULL,
    "state_hash" TEXT NOT NULL,
    "rng" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("game_id","seq")
);

-- CreateTable
CREATE TABLE "actions" (
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

    CONSTRAINT "actions_pkey" PRIMARY KEY ("game_id","seq_before","player_id","attempt")
);

-- CreateTable
CREATE TABLE "agent_traces" (
    "id" BIGSERIAL NOT NULL,
    "game_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,
    "window" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "entries" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_traces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_calls" (
    "id" BIGSERIAL NOT NULL,
    "game_id" TEXT,
    "player_id" TEXT,
    "turn" INTEGER,
    "window" TEXT,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "request_hash" TEXT,
    "input_tokens" INTEGER NOT NULL DEFAULT 0,
    "output_tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournaments" (
    "tournament_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "seed" BIGINT NOT NULL,
    "config" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournaments_pkey" PRIMARY KEY ("tournament_id")
);

-- CreateTable
CREATE TABLE "tournament_games" (
    "tournament_id" TEXT NOT NULL,
    "game_id" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "table" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "tournament_games_pkey" PRIMARY KEY ("tournament_id","game_id")
);

-- CreateTable
CREATE TABLE "ratings" (
    "tournament_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "sigma" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ratings_pkey" PRIMARY KEY ("tournament_id","agent")
);

-- CreateIndex
CREATE INDEX "games_created_at_game_id_idx" ON "games"("created_at", "game_id");

-- CreateIndex
CREATE INDEX "games_status_created_at_idx" ON "games"("status", "created_at");

-- CreateIndex
CREATE INDEX "events_game_id_turn_phase_idx" ON "events"("game_id", "turn", "phase");

-- CreateIndex
CREATE INDEX "events_game_id_player_id_turn_idx" ON "events"("game_id", "player_id", "turn");

-- CreateIndex
CREATE UNIQUE INDEX "events_game_id_event_id_key" ON "events"("game_id", "event_id");

-- CreateIndex
CREATE INDEX "actions_game_id_player_id_turn_idx" ON "actions"("game_id", "player_id", "turn");

-- CreateIndex
CREATE INDEX "agent_traces_game_id_player_id_turn_idx" ON "agent_traces"("game_id", "player_id", "turn");

-- CreateIndex
CREATE INDEX "agent_traces_request_id_idx" ON "agent_traces"("request_id");

-- CreateIndex
CREATE INDEX "provider_calls_game_id_player_id_turn_idx" ON "provider_calls"("game_id", "player_id", "turn");

-- CreateIndex
CREATE INDEX "provider_calls_created_at_idx" ON "provider_calls"("created_at");

-- CreateIndex
CREATE INDEX "tournaments_created_at_idx" ON "tournaments"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "tournament_games_game_id_key" ON "tournament_games"("game_id");

-- CreateIndex
CREATE INDEX "tournament_games_tournament_id_round_idx" ON "tournament_games"("tournament_id", "round");

-- CreateIndex
CREATE INDEX "ratings_tournament_id_mu_idx" ON "ratings"("tournament_id", "mu");

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "actions" ADD CONSTRAINT "actions_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_traces" ADD CONSTRAINT "agent_traces_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_calls" ADD CONSTRAINT "provider_calls_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_games" ADD CONSTRAINT "tournament_games_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("tournament_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_games" ADD CONSTRAINT "tournament_games_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("tournament_id") ON DELETE CASCADE ON UPDATE CASCADE;
