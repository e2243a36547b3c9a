/*
 * Output files made as safely as the test file, and the standard
 * descriptors made safe before any file is opened.
 */
#ifndef BONNIE_OUTFILE_H
#define BONNIE_OUTFILE_H

/*
 * Make sure descriptors 0, 1 and 2 are open, to /dev/null when closed, so
 * that no file opened later takes their place and receives the tables
 * or the progress text.  Call first thing in main().  0 or -1.
 */
int	std_fds_open(void);

#endif
