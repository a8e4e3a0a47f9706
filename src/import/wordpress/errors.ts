// A failure of the import that the person running it can act on: printed as one line.
import { CliError } from '../../cli/command.ts';

export class ImportError extends CliError {}
