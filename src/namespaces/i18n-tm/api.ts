// Translation management as other modules may use it: the job status codes (the importer), the
// statuses a job can be assigned from (the console's assignment forms).
export { STATUS, STORED_STATUS_CODES } from './model.ts';
export { ASSIGNABLE_STATUSES } from './assign.ts';
