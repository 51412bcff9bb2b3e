import { jsonSchemaBenchShard } from "../support/conformance/jsonschemabenchRatchet.js";

jsonSchemaBenchShard(0, 2);
