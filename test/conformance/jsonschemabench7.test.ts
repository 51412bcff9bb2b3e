import { JSON_SCHEMA_BENCH_SHARDS, jsonSchemaBenchShard } from "../support/conformance/jsonschemabenchRatchet.js";

jsonSchemaBenchShard(6, JSON_SCHEMA_BENCH_SHARDS);
