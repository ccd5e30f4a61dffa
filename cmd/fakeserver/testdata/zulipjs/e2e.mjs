// End-to-end test of the chatconform fake with the official JavaScript client, zulip-js.
// cmd/fakeserver/zulipjs_test.go starts the fake binary and runs this with the fake's URL and
// the default fixture's credentials in the environment. Every call must succeed (result
// "success"); the closing line gives the figures, and the exit code is 1 on any failure.
import { createHash, createHmac, randomBytes } from 'node:crypto';

// zulip-js replaces the global FormData with its own (isomorphic-form-data); the upload below
// needs Node's, so it is kept before zulip-js is loaded.
const NodeFormData = globalThis.FormData;
const { default: zulipInit } = await import('zulip-js');

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const realm = env('FAKE_URL');
const owner = { username: env('OWNER_EMAIL'), password: env('OWNER_PASSWORD') };
const bot = { username: env('BOT_EMAIL'), apiKey: env('BOT_API_KEY') };
const jwtKey = env('JWT_KEY');

let passed = 0;
let failed = 0;

// check runs one client call and counts it: any reply but a success fails.
async function check(name, call) {
  try {
    const res = await call();
    if (!res || res.result !== 'success') {
      throw new Error(`error reply: ${JSON.stringify(res)}`);
    }
    passed += 1;
    return res;
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err.message}`);
    return {};
  }
}

// expect records a fact the test needs beyond a success reply.
function expect(name, ok, detail) {
  if (ok) {
    passed += 1;
  } else {
    failed += 1;
    console.log(`FAIL ${name}: ${detail}`);
  }
}

// control calls the fake's control API (no credentials on a loopback address) to set up what
// no public API can: the push service and the video-call integration.
function control(method, path, fields) {
  return check(`${method} /_fake${path}`, async () => (await fetch(`${realm}/_fake${path}`, {
    // The X- header tells the fake's control API that no web form sent the request.
    method, headers: { 'X-Chatconform-Client': 'zulip-js e2e' }, body: new URLSearchParams(fields),
  })).json());
}

const b64 = (buf) => Buffer.from(buf).toString('base64');
const b64url = (s) => Buffer.from(s).toString('base64url');

function jwtFor(email) {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ email }));
  const sig = createHmac('sha256', jwtKey).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

async function main() {
  // A password login: zulip-js fetches the API key through POST /fetch_api_key.
  const z = await zulipInit({ realm, ...owner });
  expect('password login (POST /fetch_api_key)', typeof z.config.apiKey === 'string' && z.config.apiKey.length > 0,
    `no API key: ${JSON.stringify(z.config.apiKey)}`);
  const call = (endpoint, method, params) => z.callEndpoint(endpoint, method, params);
  const unique = randomBytes(4).toString('hex');

  // The event queue, registered before anything happens, with the client's defaults.
  const queue = await check('queues.register', () => z.queues.register({ event_types: ['message'] }));

  // Every zulip-js wrapper whose route the fake serves.
  await check('server.settings', () => z.server.settings());
  await check('accounts.retrieve', () => z.accounts.retrieve());
  const me = await check('users.me.getProfile', () => z.users.me.getProfile());
  const users = await check('users.retrieve', () => z.users.retrieve());
  const member = (users.members || []).find((u) => u.email === 'member@chat.example.test') || {};
  await check('users.create', () => z.users.create({
    email: `js-${unique}@chat.example.test`, password: `pw-${unique}`, full_name: `JS ${unique}`,
  }));
  await check('emojis.retrieve', () => z.emojis.retrieve());
  await check('streams.retrieve', () => z.streams.retrieve());
  const general = await check('streams.getStreamId', () => z.streams.getStreamId('general'));
  const streamId = general.stream_id;
  await check('streams.subscriptions.retrieve', () => z.streams.subscriptions.retrieve());
  const channel = `js-${unique}`;
  await check('users.me.subscriptions.add', () => z.users.me.subscriptions.add({
    subscriptions: JSON.stringify([{ name: channel }]),
  }));
  const content = `**bold** from zulip-js ${unique}`;
  const sent = await check('messages.send', () => z.messages.send({
    type: 'stream', to: 'general', topic: `zulip-js ${unique}`, content,
  }));
  const messageId = sent.id;
  await check('streams.topics.retrieve', () => z.streams.topics.retrieve({ stream_id: streamId }));
  await check('messages.retrieve', () => z.messages.retrieve({
    anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'general' }],
  }));
  await check('messages.getById', () => z.messages.getById({ message_id: messageId }));
  await check('messages.render', () => z.messages.render({ content: '**hi**' }));
  await check('messages.flags.add', () => z.messages.flags.add({ flag: 'starred', messages: [messageId] }));
  await check('messages.flags.remove', () => z.messages.flags.remove({ flag: 'starred', messages: [messageId] }));
  await check('reactions.add', () => z.reactions.add({ message_id: messageId, emoji_name: 'smile' }));
  await check('reactions.remove', () => z.reactions.remove({ message_id: messageId, emoji_name: 'smile' }));
  await check('messages.update', () => z.messages.update({ message_id: messageId, content: `${content} (edited)` }));
  await check('messages.getHistoryById', () => z.messages.getHistoryById({ message_id: messageId }));
  await check('typing.send', () => z.typing.send({ to: [member.user_id], op: 'start' }));
  const word = `word-${unique}`;
  await check('POST /users/me/alert_words', () => call('/users/me/alert_words', 'POST', { alert_words: JSON.stringify([word]) }));
  const words = await check('users.me.alertWords.retrieve', () => z.users.me.alertWords.retrieve());
  expect('the alert word is listed', (words.alert_words || []).includes(word), `alert words ${JSON.stringify(words.alert_words)}`);

  // The event queue sees its own messages, as raw Markdown (apply_markdown defaults to false).
  const events = await check('events.retrieve', () => z.events.retrieve({
    queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true,
  }));
  const own = (events.events || []).find((e) => e.type === 'message' && e.message.id === messageId);
  expect('the queue sees its own message', own, `no message event for ${messageId}: ${JSON.stringify(events.events)}`);
  if (own) {
    expect('raw Markdown by default', own.message.content === content && own.message.content_type === 'text/x-markdown',
      `content ${JSON.stringify(own.message.content)} (${own.message.content_type})`);
  }

  // The 21 documented operations, through callEndpoint.
  const second = await check('messages.send (for the operations)', () => z.messages.send({
    type: 'stream', to: 'general', topic: `ops ${unique}`, content: 'operations',
  }));
  const opsId = second.id;
  await check('1 PATCH /messages/{id}', () => call(`/messages/${opsId}`, 'PATCH', { content: 'operations (edited)' }));
  await check('2 PATCH /users/{email}', () => call(`/users/${encodeURIComponent(member.email)}`, 'PATCH', { full_name: `Max ${unique}` }));
  await check('3 PATCH /users/me/subscriptions/muted_topics', () => call('/users/me/subscriptions/muted_topics', 'PATCH', {
    stream_id: streamId, topic: `ops ${unique}`, op: 'add',
  }));
  await check('4 POST /users/me/presence', () => call('/users/me/presence', 'POST', { status: 'active' }));
  await check('5 GET /messages/matches_narrow', () => call('/messages/matches_narrow', 'GET', {
    msg_ids: JSON.stringify([opsId]), narrow: JSON.stringify([{ operator: 'channel', operand: 'general' }]),
  }));
  await check('6 GET /messages/{id}', () => call(`/messages/${opsId}`, 'GET'));
  await control('PATCH', '/config', { push_configured: 'true' });
  const device = await check('POST /register_client_device', () => call('/register_client_device', 'POST', {}));
  const token = randomBytes(32).toString('hex');
  await check('7 POST /mobile_push/register', () => call('/mobile_push/register', 'POST', {
    device_id: device.device_id,
    push_key: b64(Buffer.concat([Buffer.from([0x31]), randomBytes(32)])),
    push_key_id: randomBytes(4).readUInt32BE(0),
    token_kind: 'fcm',
    token_id: b64(createHash('sha256').update(token).digest().subarray(0, 8)),
    bouncer_public_key: b64(randomBytes(32)),
    encrypted_push_registration: b64(randomBytes(96)),
  }));
  await check('8 POST /streams/{id}/delete_topic', () => call(`/streams/${streamId}/delete_topic`, 'POST', { topic_name: `zulip-js ${unique}` }));
  const jwtLogin = await fetch(`${realm}/api/v1/jwt/fetch_api_key`, {
    method: 'POST', body: new URLSearchParams({ token: jwtFor(owner.username) }),
  });
  await check('9 POST /jwt/fetch_api_key', () => jwtLogin.json());
  await check('10 PATCH /users/me/subscriptions/{id}', () => call(`/users/me/subscriptions/${streamId}`, 'PATCH', {
    property: 'pin_to_top', value: 'true',
  }));
  await check('11 POST /users', () => call('/users', 'POST', {
    email: `ops-${unique}@chat.example.test`, password: `pw-${unique}`, full_name: `Ops ${unique}`,
  }));
  await check('12 GET /users/me/{id}/topics', () => call(`/users/me/${streamId}/topics`, 'GET'));
  await check('13 POST /messages/{id}/typing', () => call(`/messages/${opsId}/typing`, 'POST', { op: 'start' }));
  await check('14 POST /realm/playgrounds', () => call('/realm/playgrounds', 'POST', {
    name: `Play ${unique}`, pygments_language: 'Python', url_template: 'https://play.example.test/?code={code}',
  }));
  await check('15 POST /reminders', () => call('/reminders', 'POST', {
    message_id: opsId, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 365 * 86400,
  }));
  const groups = await check('GET /user_groups', () => call('/user_groups', 'GET'));
  const group = (groups.user_groups || [])[0] || {};
  await check('16 GET /user_groups/{id}/members/{user_id}', () => call(`/user_groups/${group.id}/members/${me.user_id}`, 'GET'));
  await check('17 GET /realm/linkifiers', () => call('/realm/linkifiers', 'GET'));
  // zulip-js has no upload wrapper: the file goes up with fetch, as a browser client sends it.
  const form = new NodeFormData();
  form.append('file', new Blob(['zulip-js upload']), `js-${unique}.txt`);
  const upload = await check('POST /user_uploads', async () => (await fetch(`${realm}/api/v1/user_uploads`, {
    method: 'POST', body: form, headers: { Authorization: `Basic ${b64(`${owner.username}:${z.config.apiKey}`)}` },
  })).json());
  const attachments = await check('GET /attachments', () => call('/attachments', 'GET'));
  const attachment = (attachments.attachments || []).find((a) => upload.url && upload.url.endsWith(a.path_id)) || {};
  await check('18 DELETE /attachments/{id}', () => call(`/attachments/${attachment.id}`, 'DELETE'));
  await check('19 POST /mark_all_as_read', () => call('/mark_all_as_read', 'POST', {}));
  const zb = await zulipInit({ realm, ...bot });
  await check('PUT /bot_storage', () => zb.callEndpoint('/bot_storage', 'PUT', { storage: JSON.stringify({ [unique]: 'v' }) }));
  await check('20 DELETE /bot_storage', () => zb.callEndpoint('/bot_storage', 'DELETE', { keys: JSON.stringify([unique]) }));
  await control('PATCH', '/config', { video_calls_configured: 'true' });
  await control('POST', '/vcall_token', { user_id: String(me.user_id), has_token: 'true' });
  await check('21 POST /calls/vcall/create', () => call('/calls/vcall/create', 'POST', {}));

  // The real server's client routes beyond the wrappers and the documented operations.
  await check('DELETE /users/me/alert_words', () => call('/users/me/alert_words', 'DELETE', { alert_words: JSON.stringify([word]) }));
  await check('POST /users/me/status', () => call('/users/me/status', 'POST', { status_text: `testing ${unique}`, emoji_name: 'coffee' }));
  const status = await check('GET /users/{id}/status', () => call(`/users/${me.user_id}/status`, 'GET'));
  expect('the status reads back', status.status && status.status.status_text === `testing ${unique}`, JSON.stringify(status));
  await check('POST /users/me/muted_users/{id}', () => call(`/users/me/muted_users/${member.user_id}`, 'POST', {}));
  await check('DELETE /users/me/muted_users/{id}', () => call(`/users/me/muted_users/${member.user_id}`, 'DELETE', {}));
  const draft = { type: 'stream', to: [streamId], topic: `draft ${unique}`, content: 'a draft' };
  const drafts = await check('POST /drafts', () => call('/drafts', 'POST', { drafts: JSON.stringify([draft]) }));
  const draftId = (drafts.ids || [])[0];
  await check('GET /drafts', () => call('/drafts', 'GET'));
  await check('PATCH /drafts/{id}', () => call(`/drafts/${draftId}`, 'PATCH', { draft: JSON.stringify({ ...draft, content: 'edited' }) }));
  await check('DELETE /drafts/{id}', () => call(`/drafts/${draftId}`, 'DELETE', {}));
  const made = await check('POST /user_groups/create', () => call('/user_groups/create', 'POST', {
    name: `js group ${unique}`, description: 'from zulip-js', members: JSON.stringify([me.user_id]),
  }));
  await check('PATCH /user_groups/{id}', () => call(`/user_groups/${made.group_id}`, 'PATCH', { description: 'edited by zulip-js' }));
  await check('GET /user_groups/{id}/subgroups', () => call(`/user_groups/${made.group_id}/subgroups`, 'GET'));
  const subscribers = await check('GET /streams/{id}/members', () => call(`/streams/${streamId}/members`, 'GET'));
  expect('the owner is a subscriber', (subscribers.subscribers || []).includes(me.user_id), JSON.stringify(subscribers));
  await check('GET /users/{id}/subscriptions/{stream_id}', () => call(`/users/${member.user_id}/subscriptions/${streamId}`, 'GET'));
  const later = Math.floor(Date.now() / 1000) + 365 * 86400;
  const scheduledMsg = await check('POST /scheduled_messages', () => call('/scheduled_messages', 'POST', {
    type: 'stream', to: streamId, topic: `scheduled ${unique}`, content: 'later', scheduled_delivery_timestamp: later,
  }));
  await check('GET /scheduled_messages', () => call('/scheduled_messages', 'GET'));
  await check('PATCH /scheduled_messages/{id}', () => call(`/scheduled_messages/${scheduledMsg.scheduled_message_id}`, 'PATCH', { content: 'later, edited' }));
  await check('DELETE /scheduled_messages/{id}', () => call(`/scheduled_messages/${scheduledMsg.scheduled_message_id}`, 'DELETE', {}));
  const snippet = await check('POST /saved_snippets', () => call('/saved_snippets', 'POST', { title: `snippet ${unique}`, content: 'Hello!' }));
  await check('GET /saved_snippets', () => call('/saved_snippets', 'GET'));
  await check('PATCH /saved_snippets/{id}', () => call(`/saved_snippets/${snippet.saved_snippet_id}`, 'PATCH', { content: 'Hi!' }));
  await check('DELETE /saved_snippets/{id}', () => call(`/saved_snippets/${snippet.saved_snippet_id}`, 'DELETE', {}));
  await check('GET /streams/{id}/email_address', () => call(`/streams/${streamId}/email_address`, 'GET'));
  await check('GET /messages/{id}/read_receipts', () => call(`/messages/${opsId}/read_receipts`, 'GET'));
  await check('POST /users/{id}/status', () => call(`/users/${member.user_id}/status`, 'POST', { status_text: 'set by the owner' }));
  await check('PATCH /users/me/subscriptions', () => call('/users/me/subscriptions', 'PATCH', {
    add: JSON.stringify([{ name: `js brief ${unique}` }]), delete: JSON.stringify([`js brief ${unique}`]),
  }));
  await check('POST /channels/create', () => call('/channels/create', 'POST', {
    name: `js created ${unique}`, subscribers: JSON.stringify([member.user_id]),
  }));
  await check('GET /users/{id}/channels', () => call(`/users/${member.user_id}/channels`, 'GET'));
  // Reports go to a private moderation request channel, which the owner sets first.
  const moderation = await check('POST /channels/create (private)', () => call('/channels/create', 'POST', {
    name: `js moderation ${unique}`, subscribers: JSON.stringify([me.user_id]), invite_only: 'true',
  }));
  await check('PATCH /realm (moderation_request_channel_id)', () => call('/realm', 'PATCH', { moderation_request_channel_id: moderation.id }));
  await check('POST /messages/{id}/report', () => call(`/messages/${opsId}/report`, 'POST', { report_type: 'other', description: 'from zulip-js' }));
  const welcome = await check('POST /realm/test_welcome_bot_custom_message', () => call('/realm/test_welcome_bot_custom_message', 'POST', {
    welcome_message_custom_text: `Welcome, from zulip-js ${unique}`,
  }));
  expect('the Welcome Bot message has an ID', Number.isInteger(welcome.message_id), JSON.stringify(welcome));
  await check('PATCH /realm/user_settings_defaults', () => call('/realm/user_settings_defaults', 'PATCH', { enter_sends: true }));
  await check('POST /default_streams', () => call('/default_streams', 'POST', { stream_id: streamId }));
  await check('DELETE /default_streams', () => call('/default_streams', 'DELETE', { stream_id: streamId }));
  const folder = await check('POST /channel_folders/create', () => call('/channel_folders/create', 'POST', {
    name: `js folder ${unique}`, description: 'from zulip-js',
  }));
  await check('GET /channel_folders', () => call('/channel_folders', 'GET', { include_archived: true }));
  await check('PATCH /channel_folders/{id}', () => call(`/channel_folders/${folder.channel_folder_id}`, 'PATCH', { is_archived: true }));
  await check('PATCH /channel_folders', () => call('/channel_folders', 'PATCH', { order: JSON.stringify([folder.channel_folder_id]) }));
  // A fragment's slashes go encoded in the path.
  const view = `/navigation_views/${encodeURIComponent('narrow/is/starred')}`;
  await check('POST /navigation_views', () => call('/navigation_views', 'POST', { fragment: 'narrow/is/starred', is_pinned: 'true' }));
  await check('GET /navigation_views', () => call('/navigation_views', 'GET'));
  await check('PATCH /navigation_views/{fragment}', () => call(view, 'PATCH', { is_pinned: false }));
  await check('DELETE /navigation_views/{fragment}', () => call(view, 'DELETE', {}));
  const profileFields = await check('GET /realm/profile_fields', () => call('/realm/profile_fields', 'GET'));
  const fieldIds = (profileFields.custom_fields || []).map((f) => f.id).reverse();
  await check('PATCH /realm/profile_fields', () => call('/realm/profile_fields', 'PATCH', { order: JSON.stringify(fieldIds) }));
  await check('PATCH /realm/profile_fields/{id}', () => call(`/realm/profile_fields/${fieldIds[0]}`, 'PATCH', { hint: 'edited by zulip-js' }));
  const botId = ((users.members || []).find((u) => u.email === bot.username) || {}).user_id;
  await check('PATCH /bots/{id}', () => call(`/bots/${botId}`, 'PATCH', { full_name: `Helper ${unique}` }));
  await check('POST /bots/{id}/api_key/regenerate', () => call(`/bots/${botId}/api_key/regenerate`, 'POST', {}));
  await check('GET /bots/{id}/api_key', () => call(`/bots/${botId}/api_key`, 'GET'));
  await check('POST /invites', () => call('/invites', 'POST', {
    invitee_emails: `invitee-${unique}@chat.example.test`, stream_ids: JSON.stringify([streamId]),
  }));
  const invites = await check('GET /invites', () => call('/invites', 'GET'));
  const invite = (invites.invites || []).find((i) => i.email === `invitee-${unique}@chat.example.test`) || {};
  await check('POST /invites/{id}/resend', () => call(`/invites/${invite.id}/resend`, 'POST', {}));
  await check('DELETE /invites/{id}', () => call(`/invites/${invite.id}`, 'DELETE', {}));
  await check('POST /invites/multiuse', () => call('/invites/multiuse', 'POST', { invite_expires_in_minutes: JSON.stringify(null) }));
  const links = await check('GET /invites (links)', () => call('/invites', 'GET'));
  const link = (links.invites || []).find((i) => i.is_multiuse) || {};
  await check('DELETE /invites/multiuse/{id}', () => call(`/invites/multiuse/${link.id}`, 'DELETE', {}));
  await check('POST /export/realm', () => call('/export/realm', 'POST', {}));
  await check('GET /export/realm', () => call('/export/realm', 'GET'));
  await check('GET /export/realm/consents', () => call('/export/realm/consents', 'GET'));
  const spare = await check('POST /register_client_device (to remove)', () => call('/register_client_device', 'POST', {}));
  await check('POST /remove_client_device', () => call('/remove_client_device', 'POST', { device_id: spare.device_id }));
  await check('POST /users/me/android_gcm_reg_id (to test)', () => call('/users/me/android_gcm_reg_id', 'POST', { token: `fcm-${unique}` }));
  await check('POST /mobile_push/test_notification', () => call('/mobile_push/test_notification', 'POST', { token: `fcm-${unique}` }));
  await check('POST /mobile_push/e2ee/test_notification', () => call('/mobile_push/e2ee/test_notification', 'POST', { device_id: device.device_id }));
  await check('GET /calls/bigbluebutton/create', () => call('/calls/bigbluebutton/create', 'GET', { meeting_name: `meeting ${unique}` }));
  // The user made by users.create logs in with its password and deactivates itself.
  const leaverEmail = `js-${unique}@chat.example.test`;
  const renewer = await zulipInit({ realm, username: leaverEmail, password: `pw-${unique}` });
  const renewed = await check('POST /users/me/api_key/regenerate', () => renewer.callEndpoint('/users/me/api_key/regenerate', 'POST', {}));
  // The user goes on with the new key.
  const leaver = await zulipInit({ realm, username: leaverEmail, apiKey: renewed.api_key });
  await check('DELETE /users/me', () => leaver.callEndpoint('/users/me', 'DELETE', {}));

  // Wrappers that remove, last. Two wrappers are left out: users.me.pointer (GET and POST
  // /users/me/pointer) and filters.retrieve (GET /realm/filters), routes the real server no
  // longer has (gone from its URL table and its API documentation); it answers 404 as the fake does.
  await check('reactions.add (to remove by message)', () => z.reactions.add({ message_id: opsId, emoji_name: 'tada' }));
  await check('messages.deleteReactionById', () => z.messages.deleteReactionById({ message_id: opsId, emoji_name: 'tada' }));
  await check('messages.deleteById', () => z.messages.deleteById({ message_id: opsId }));
  await check('users.me.subscriptions.remove', () => z.users.me.subscriptions.remove({
    subscriptions: JSON.stringify([channel]),
  }));
  const created = await check('streams.getStreamId (new channel)', () => z.streams.getStreamId(channel));
  await check('streams.deleteById', () => z.streams.deleteById({ stream_id: created.stream_id }));
  await check('queues.deregister', () => z.queues.deregister({ queue_id: queue.queue_id }));
}

try {
  await main();
} catch (err) {
  failed += 1;
  console.log(`FAIL: ${err.stack}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
