/** The values some commands' options take, apart from the commands: the command tree lists them without loading the commands (cli/occasional-commands.ts). */
export const DOCTOR_FORMATS = ["text", "json", "sarif", "github"] as const;

export const COVERAGE_FORMATS = ["markdown", "json", "html"] as const;
