-- Rate-limit counters are rewritten on every request and worthless after a crash: no WAL for them.
ALTER TABLE "rate_limits" SET UNLOGGED;
