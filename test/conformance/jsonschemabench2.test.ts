import { jsonSchemaBenchShard } from "./jsonschemabenchRatchet.js";

jsonSchemaBenchShard(1, 2);
