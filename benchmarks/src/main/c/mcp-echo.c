/*
 * The server of the MCP round-trip row: an MCP server over stdio with one tool, echo, answering each request line
 * at once on one thread. It reads only what the MCP Java SDK's client sends (one JSON-RPC message a line, the
 * request's top-level "id" first among the fields named id), so the row measures the transports, not a server.
 *
 *   mcp-echo
 */
#include <stdio.h>
#include <string.h>

/* Copies the JSON value that follows "<name>": (a string with its quotes, or a bare number) into out. */
static int value(const char *line, const char *name, char *out, size_t size) {
    char key[64];
    snprintf(key, sizeof(key), "\"%s\":", name);
    const char *at = strstr(line, key);
    if (at == NULL) {
        return 0;
    }
    at += strlen(key);
    size_t n = 0;
    if (*at == '"') {
        out[n++] = *at++;
        while (*at != '\0' && *at != '"' && n < size - 2) {
            if (*at == '\\' && at[1] != '\0') {
                out[n++] = *at++;
            }
            out[n++] = *at++;
        }
        out[n++] = '"';
    }
    else {
        while (*at != '\0' && *at != ',' && *at != '}' && n < size - 1) {
            out[n++] = *at++;
        }
    }
    out[n] = '\0';
    return 1;
}

int main(void) {
    static char line[1 << 16];
    char id[256], method[128], version[64];
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    while (fgets(line, sizeof(line), stdin) != NULL) {
        if (!value(line, "method", method, sizeof(method)) || !value(line, "id", id, sizeof(id))) {
            continue; /* a notification, or a response: nothing to answer */
        }
        if (strcmp(method, "\"initialize\"") == 0) {
            if (!value(line, "protocolVersion", version, sizeof(version))) {
                strcpy(version, "\"2025-06-18\"");
            }
            printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"protocolVersion\":%s,\"capabilities\":{\"tools\":{}},"
                   "\"serverInfo\":{\"name\":\"mcp-echo\",\"version\":\"1.0\"}}}\n", id, version);
        }
        else if (strcmp(method, "\"tools/list\"") == 0) {
            printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[{\"name\":\"echo\",\"description\":"
                   "\"Returns its text\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":"
                   "{\"type\":\"string\"}}}}]}}\n", id);
        }
        else if (strcmp(method, "\"tools/call\"") == 0) {
            printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ping\"}],"
                   "\"isError\":false}}\n", id);
        }
        else if (strcmp(method, "\"ping\"") == 0) {
            printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n", id);
        }
        else {
            printf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"no method %s\"}}\n", id,
                   method);
        }
        fflush(stdout);
    }
    return 0;
}
