// The CLI's exit codes, shared by every command.

/** Everything was read and written. */
export const EXIT_OK = 0
/** Some records or files could not be read (each reported), or a check failed. */
export const EXIT_BAD_INPUT = 1
/** The command line is wrong, or an output exists that was not to be replaced. */
export const EXIT_USAGE = 2
/** The job failed: an output could not be written (disk full, permissions). */
export const EXIT_FAILED = 3
/** Interrupted by SIGINT (SIGTERM gives 143). */
export const EXIT_INTERRUPTED = 130
