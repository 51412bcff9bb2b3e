export { Vocabulary, type PieceInput, type VocabularyOptions } from "./Vocabulary.js";
