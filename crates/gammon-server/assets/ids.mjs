// The gnubg Position ID of a board set up in the editor: how the page hands
// it to the server (crates/gammon-rules/src/position_id.rs). Reading IDs is
// the server's (/api/position).

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function bytesBase64(bytes, chars) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
    for (const shift of [18, 12, 6, 0]) out += BASE64[(n >> shift) & 63];
  }
  return out.slice(0, chars);
}

// The player not on roll first, then the player on roll; 25 unary counts
// each (points 1-24, then the bar), bit k in byte k/8, least significant first.
export function encodePositionId(board) {
  const bytes = new Uint8Array(10);
  let k = 0;
  for (const side of [board[1], board[0]]) {
    for (let index = 1; index <= 25; index += 1) {
      for (let n = 0; n < side[index]; n += 1) {
        bytes[k >> 3] |= 1 << (k & 7);
        k += 1;
      }
      k += 1;
    }
  }
  return bytesBase64(bytes, 14);
}
