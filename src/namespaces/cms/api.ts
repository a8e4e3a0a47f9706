// What other modules may use of cms/v2: the permission rules of pages and posts (the console
// shows only the actions the API will allow).
export { canDelete, canEdit, canSetStatus, CAPABILITIES } from './permissions.ts';
