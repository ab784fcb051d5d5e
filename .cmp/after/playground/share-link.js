"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.shareFragment = shareFragment;
exports.shareLink = shareLink;
exports.readShareFragment = readShareFragment;
const playground_input_1 = require("./playground-input");
/** The UTF-8 bytes of `text` as base64url without padding (RFC 4648 §5). */
function base64url(text) {
    let binary = '';
    for (const byte of new TextEncoder().encode(text))
        binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
/** The text whose UTF-8 bytes `encoded` holds as base64url (padding optional); throws when it does not. */
function fromBase64url(encoded) {
    if (!/^[A-Za-z0-9_-]*$/.test(encoded))
        throw new Error('characters other than base64url (A-Z a-z 0-9 - _)');
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
/**
 * The fragment of a share link (without `#`): the base64url of the input as JSON, uncompressed.
 * Nothing of it reaches a server: browsers never send the fragment.
 */
function shareFragment(input) {
    const { policies, payload, now, facts } = input;
    return base64url(JSON.stringify({ policies, payload, now, facts }));
}
/** `base` (the playground's URL) with the input in its fragment. */
function shareLink(base, input) {
    return `${base.replace(/#.*$/, '')}#${shareFragment(input)}`;
}
/** The input a fragment (with or without its `#`) holds, or why it holds none. */
function readShareFragment(fragment) {
    const encoded = fragment.replace(/^#/, '').replace(/=+$/, '');
    let json;
    try {
        json = fromBase64url(encoded);
    }
    catch (err) {
        return { ok: false, message: `the link's fragment is not base64url of UTF-8 text: ${err.message}` };
    }
    let value;
    try {
        value = JSON.parse(json);
    }
    catch (err) {
        return { ok: false, message: `the link's fragment does not hold JSON: ${err.message}` };
    }
    return (0, playground_input_1.readPlaygroundInput)(value);
}
//# sourceMappingURL=share-link.js.map