"""Pure functions over recorded data: request_state tokens, header parameters, key rotation, tampering."""
