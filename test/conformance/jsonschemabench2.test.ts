import { jsonSchemaBenchShard } from "../support/conformance/jsonschemabenchRatchet.js";

jsonSchemaBenchShard(1, 2);
