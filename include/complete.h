/*
 * Shell completion from the commands' option rows and the phase table:
 * "bonnie-ng __complete [--] WORD... CURRENT" prints what may take the
 * place of CURRENT (the word under the cursor, maybe empty) after WORD...
 * (the words typed after the program's name).  The scripts in
 * completions/ only pass the words and show the answer.
 *
 * The answer's first line says what to offer: "words", then one candidate
 * a line, each the whole word (starting with CURRENT); "files"; "dirs"; or
 * "none" (a free value such as a size).
 */
#ifndef BONNIE_COMPLETE_H
#define BONNIE_COMPLETE_H

#include <stdio.h>

/* Answer for words[0 .. n-1], the last being CURRENT.  Returns 0. */
int	complete_words(FILE *, int n, char **words);

#endif
