import { jsonSchemaBenchShard } from "./jsonschemabenchRatchet.js";

jsonSchemaBenchShard(0, 2);
