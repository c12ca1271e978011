// A TypeScript SDK v2 server (npm @modelcontextprotocol/server 2.4.0, pinned in ../package.json) for the
// lab's interop tests: software nobody here wrote, serving the 2026-07-28 features the lab explains.
//
//   node server.mjs [PORT]      listens on 127.0.0.1 only (PORT 0 or none: any free port) and prints
//                               "listening on http://127.0.0.1:PORT/mcp" once it accepts connections.
//   FIXTURE_VARIANT=changed     the same server with one answer worded differently (replay must notice).
//
// The tool names the conformance suite's 2026-07-28 server scenarios call are used where a scenario calls
// one (test_input_required_result_*, test_x_mcp_header), so the suite scores this server too. State is
// kept in requestState minted by the SDK's own createRequestStateCodec (HMAC-signed, not encrypted) and
// verified by the SDK before a handler runs.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

import {
    McpServer,
    ResourceTemplate,
    acceptedContent,
    createMcpHandler,
    createRequestStateCodec,
    fromJsonSchema,
    inputRequired,
} from '@modelcontextprotocol/server';
import { localhostHostValidation, toNodeHandler } from '@modelcontextprotocol/node';

const changed = process.env.FIXTURE_VARIANT === 'changed';
const codec = createRequestStateCodec({ key: crypto.getRandomValues(new Uint8Array(32)), ttlSeconds: 600 });
const empty = fromJsonSchema({ type: 'object', properties: {} });

const askName = (message = 'What is your name?') =>
    inputRequired.elicit({
        message,
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
const text = (value) => ({ content: [{ type: 'text', text: value }] });

function build() {
    const server = new McpServer(
        { name: 'ts-fixture', version: '2.4.0-fixture' },
        {
            capabilities: { tools: {}, prompts: {}, resources: {} },
            requestState: { verify: codec.verify },
        },
    );

    server.registerTool(
        'test_input_required_result_elicitation',
        { description: 'Asks for your name with a form (elicitation).', inputSchema: empty },
        async (_args, ctx) => {
            const name = acceptedContent(ctx.mcpReq.inputResponses, 'user_name')?.name;
            if (typeof name !== 'string') return inputRequired({ inputRequests: { user_name: askName() } });
            return text(changed ? `Hi there, ${name}!` : `Hello, ${name}!`);
        },
    );

    server.registerTool(
        'open_dashboard',
        { description: 'Asks you to open a page (URL elicitation), then confirms.', inputSchema: empty },
        async (_args, ctx) => {
            const seen = ctx.mcpReq.inputResponses?.['visit'];
            if (seen === undefined) {
                return inputRequired({
                    inputRequests: {
                        visit: inputRequired.elicitUrl({
                            message: 'Open the dashboard to link your account',
                            url: 'https://example.com/link',
                        }),
                    },
                    requestState: await codec.mint({ tool: 'open_dashboard', nonce: randomUUID() }),
                });
            }
            return text(`dashboard: ${seen.action}`);
        },
    );

    server.registerTool(
        'test_input_required_result_sampling',
        { description: 'Asks your model a question (sampling).', inputSchema: empty },
        async (_args, ctx) => {
            const answer = ctx.mcpReq.inputResponses?.['capital_question'];
            if (answer === undefined) {
                return inputRequired({
                    inputRequests: {
                        capital_question: inputRequired.createMessage({
                            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
                            maxTokens: 100,
                        }),
                    },
                });
            }
            return text(`Sampling response: ${answer.content?.text ?? JSON.stringify(answer)}`);
        },
    );

    server.registerTool(
        'test_input_required_result_list_roots',
        { description: 'Asks for your roots (roots/list).', inputSchema: empty },
        async (_args, ctx) => {
            const roots = ctx.mcpReq.inputResponses?.['client_roots']?.roots;
            if (!Array.isArray(roots)) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
            return text(`Client exposed ${roots.length} root(s): ${roots.map((r) => r.uri).join(', ')}`);
        },
    );

    server.registerTool(
        'test_input_required_result_request_state',
        { description: 'Keeps its state in a signed requestState while it asks.', inputSchema: empty },
        async (_args, ctx) => {
            if (acceptedContent(ctx.mcpReq.inputResponses, 'confirm') === undefined) {
                return inputRequired({
                    inputRequests: {
                        confirm: inputRequired.elicit({
                            message: 'Please confirm',
                            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
                        }),
                    },
                    requestState: await codec.mint({ tool: 'request_state', cart: ['tea'], nonce: randomUUID() }),
                });
            }
            const state = ctx.mcpReq.requestState();
            return text(state?.tool === 'request_state' ? 'state-ok: requestState verified' : 'state missing');
        },
    );

    server.registerTool(
        'test_input_required_result_multiple_inputs',
        { description: 'Asks a form, your model and your roots at once.', inputSchema: empty },
        async (_args, ctx) => {
            const responses = ctx.mcpReq.inputResponses;
            const name = acceptedContent(responses, 'user_name')?.name;
            const greeting = responses?.['greeting']?.content?.text;
            const roots = responses?.['client_roots']?.roots;
            if (typeof name !== 'string' || typeof greeting !== 'string' || !Array.isArray(roots)) {
                return inputRequired({
                    inputRequests: {
                        user_name: askName(),
                        greeting: inputRequired.createMessage({
                            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
                            maxTokens: 50,
                        }),
                        client_roots: inputRequired.listRoots(),
                    },
                    requestState: await codec.mint({ tool: 'multiple_inputs', nonce: randomUUID() }),
                });
            }
            return text(`${greeting} ${name} (${roots.length} root(s))`);
        },
    );

    server.registerTool(
        'test_input_required_result_multi_round',
        { description: 'Two rounds of questions; the round number lives in requestState.', inputSchema: empty },
        async (_args, ctx) => {
            const state = ctx.mcpReq.requestState();
            const round = state?.tool === 'multi_round' && typeof state.round === 'number' ? state.round : 0;
            if (round === 0) {
                return inputRequired({
                    inputRequests: { step1: askName('Step 1: What is your name?') },
                    requestState: await codec.mint({ tool: 'multi_round', round: 1, nonce: randomUUID() }),
                });
            }
            if (round === 1) {
                const name = acceptedContent(ctx.mcpReq.inputResponses, 'step1')?.name ?? 'unknown';
                return inputRequired({
                    inputRequests: {
                        step2: inputRequired.elicit({
                            message: 'Step 2: What is your favorite color?',
                            requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
                        }),
                    },
                    requestState: await codec.mint({ tool: 'multi_round', round: 2, name, nonce: randomUUID() }),
                });
            }
            const color = acceptedContent(ctx.mcpReq.inputResponses, 'step2')?.color ?? 'unknown';
            return text(`Multi-round complete: ${state?.name ?? 'unknown'} likes ${color}`);
        },
    );

    server.registerTool(
        'test_input_required_result_tampered_state',
        { description: 'Completes only with the requestState it signed.', inputSchema: empty },
        async (_args, ctx) => {
            if (ctx.mcpReq.requestState() !== undefined && acceptedContent(ctx.mcpReq.inputResponses, 'confirm') !== undefined) {
                return text('integrity-ok: requestState verified');
            }
            return inputRequired({
                inputRequests: {
                    confirm: inputRequired.elicit({
                        message: 'Please confirm',
                        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
                    }),
                },
                requestState: await codec.mint({ tool: 'tampered_state', nonce: randomUUID() }),
            });
        },
    );

    server.registerTool(
        'test_input_required_result_capabilities',
        { description: 'Asks only for what the client declared it can answer.', inputSchema: empty },
        async (_args, ctx) => {
            if (ctx.mcpReq.inputResponses !== undefined) return text('Capability-aware input requests fulfilled');
            const declared = ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities'];
            const inputRequests = {};
            if (declared?.elicitation !== undefined) inputRequests.user_name = askName();
            if (declared?.sampling !== undefined) {
                inputRequests.greeting = inputRequired.createMessage({
                    messages: [{ role: 'user', content: { type: 'text', text: 'Generate a short greeting' } }],
                    maxTokens: 50,
                });
            }
            if (declared?.roots !== undefined) inputRequests.client_roots = inputRequired.listRoots();
            if (Object.keys(inputRequests).length === 0) return text('No declared client capability supports input');
            return inputRequired({ inputRequests });
        },
    );

    server.registerTool(
        'test_x_mcp_header',
        {
            description: "Today's weather; gateways route on the Region header.",
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: {
                    region: { type: 'string', description: 'mirrored into Mcp-Param-Region', 'x-mcp-header': 'Region' },
                    level: { type: 'integer', description: 'not mirrored' },
                },
                required: ['region'],
            }),
        },
        async (args) => text(`region=${args.region ?? '<none>'}`),
    );

    // The diagnostic tools the suite's server-stateless scenario calls by name.
    server.registerTool(
        'test_missing_capability',
        { description: 'Asks your model; a client that declared no sampling must be refused.', inputSchema: empty },
        async (_args, ctx) => {
            if (ctx.mcpReq.inputResponses?.['llm_answer'] !== undefined) return text('sampled');
            return inputRequired({
                inputRequests: {
                    llm_answer: inputRequired.createMessage({
                        messages: [{ role: 'user', content: { type: 'text', text: 'Reply with one word' } }],
                        maxTokens: 16,
                    }),
                },
            });
        },
    );
    server.registerTool(
        'test_streaming_elicitation',
        { description: 'Answers with a result and nothing else on the stream.', inputSchema: empty },
        async () => text('result only'),
    );
    server.registerTool(
        'test_logging_tool',
        { description: 'Logs through the request (delivered only when the request sets a log level).', inputSchema: empty },
        async (_args, ctx) => {
            await ctx.mcpReq.log('info', 'test_logging_tool ran');
            return text('logged');
        },
    );

    server.registerPrompt(
        'test_input_required_result_prompt',
        { description: 'A prompt that asks for its context first.' },
        async (ctx) => {
            const context = acceptedContent(ctx.mcpReq.inputResponses, 'user_context')?.context;
            if (typeof context !== 'string') {
                return inputRequired({
                    inputRequests: {
                        user_context: inputRequired.elicit({
                            message: 'What context should the prompt use?',
                            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
                        }),
                    },
                });
            }
            return { messages: [{ role: 'user', content: { type: 'text', text: `Use the following context: ${context}` } }] };
        },
    );

    server.registerResource(
        'report',
        new ResourceTemplate('report://{year}', { list: undefined }),
        { description: 'A yearly report that asks for the format first.', mimeType: 'text/plain' },
        async (uri, variables, ctx) => {
            const format = acceptedContent(ctx.mcpReq.inputResponses, 'format')?.format;
            if (typeof format !== 'string') {
                return inputRequired({
                    inputRequests: {
                        format: inputRequired.elicit({
                            message: `Which format for the ${variables.year} report?`,
                            requestedSchema: {
                                type: 'object',
                                properties: { format: { type: 'string', enum: ['pdf', 'csv'] } },
                                required: ['format'],
                            },
                        }),
                    },
                });
            }
            return { contents: [{ uri: uri.toString(), mimeType: 'text/plain', text: `report ${variables.year} as ${format}` }] };
        },
    );
    return server;
}

const handler = toNodeHandler(createMcpHandler(() => build(), { onerror: (error) => console.error(`fixture: ${error.message}`) }));
// As the TypeScript SDK's own conformance server does: the Host header is checked (DNS rebinding), the
// Origin header is not -- what the lab's audit calls out and the suite's rebinding scenario does not see.
const checkHost = localhostHostValidation();
const http = createServer((req, res) => {
    if (!checkHost(req, res)) return;
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
    }
    handler(req, res);
});
http.listen(Number(process.argv[2] ?? process.env.PORT ?? 0), '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${http.address().port}/mcp`);
});
const stop = () => http.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
