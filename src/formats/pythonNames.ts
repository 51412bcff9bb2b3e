/**
 * Names in Python-call units (`name(k=v, ...)`). Shared by the parser (what it reads as a call), the renderer (what
 * it can write) and the compiler (which tool and argument names a pythonic grammar can spell).
 */

/** A function or keyword name as the pythonic parser reads it (dots and dashes allowed, as tool names use them). */
export const PYTHON_NAME = /[A-Za-z_][A-Za-z0-9_.-]*/;

/** A tool name the pythonic format can write: one name token. */
export const PYTHON_CALL_NAME = new RegExp(`^${PYTHON_NAME.source}$`);

/** An argument name the pythonic format can write as a keyword argument: a Python identifier. */
export const PYTHON_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
