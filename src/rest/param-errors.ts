// The error of refused arguments, for checks a service makes beyond each argument's own (a
// range whose end lies before its start, a setting that depends on another): the same answer as
// the pipeline's for an argument it refuses.
import { MSG, fill } from './messages.ts';
import { RestError, type Lang } from './types.ts';

/**
 * 400 `rest_invalid_param`: the parameters named in the message, each one's reason in `params`,
 * and in `details` the error data of each that has some (WordPress's shape; `[]` when none).
 */
export function invalidParamsError(
  req: { lang: Lang },
  params: Record<string, string>,
  details: Record<string, unknown> = {},
): RestError {
  return new RestError('rest_invalid_param', fill(MSG.invalidParams[req.lang], Object.keys(params).join(', ')), 400, {
    params,
    details: Object.keys(details).length ? details : [],
  });
}
