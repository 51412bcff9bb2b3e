import { JSON_SCHEMA_BENCH_SHARDS, jsonSchemaBenchShard } from "../support/conformance/jsonschemabenchRatchet.js";

jsonSchemaBenchShard(7, JSON_SCHEMA_BENCH_SHARDS);
