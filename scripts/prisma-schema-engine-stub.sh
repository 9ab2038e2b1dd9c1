#!/bin/sh
# Tiltyard runs Prisma without its native schema engine (it cannot be downloaded here).
# prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY at this file so `prisma generate`,
# `validate` and `format` skip the download; anything that really needs the engine lands here
# and gets this explanation (as the JSON log line the Prisma CLI reads from an engine's stderr).
msg="Tiltyard has no native Prisma schema engine: use 'npm run db:migrate' to apply migrations and 'npm run db:diff -- <name>' to author one (both run the WASM engine). On a machine that can download the engine, set PRISMA_SCHEMA_ENGINE_BINARY= (empty) to use 'prisma migrate deploy'."
# The CLI skips the first stderr line, then wants JSON log lines.
echo "$msg" >&2
printf '{"timestamp":"","level":"ERROR","fields":{"message":"%s"},"target":"tiltyard"}\n' "$msg" >&2
exit 1
