/*
 * The arena's JavaScript bot harness: QuickJS-ng built as a wasm32-wasi reactor that exports the
 * interpreter ABI of sandbox/src/interp.rs (buf_alloc, bot_seed, bot_load, bot_init, bot_act,
 * out_ptr, out_len, wizer.initialize).
 *
 * The engine is compiled in this translation unit (quickjs.c is included) so that bot_seed can
 * reseed the context's Math.random state, which QuickJS seeds from the clock and offers no API for.
 * Built by scripts/build-interp.sh.
 */
#include "quickjs.c"

#define EXPORT(name) __attribute__((export_name(name)))

__attribute__((import_module("env"), import_name("log"))) void host_log(const char *ptr, int len);

/* Status codes of bot_load, bot_init and bot_act (sandbox/src/interp.rs). */
enum { OK = 0, ERROR = 1, INTERFACE = 2, STACK = 3, MEMORY = 4 };

/* JS frames may use this much of the shadow stack (the link gives it 1 MiB); deeper recursion
 * throws RangeError, which the bot may catch, or ends the decision with the verdict `stack`.
 * It must be reached before the host's limit on the wasm stack (512 KiB of native frames),
 * which traps uncatchably. */
#define JS_STACK_BYTES (128 * 1024)

static JSRuntime *rt;
static JSContext *ctx;
static JSValue act_fn, init_fn;
static char *out;
static size_t out_length;
static char bot_name[128] = "bot.js";

static void set_out(const char *s, size_t n)
{
    free(out);
    out = malloc(n + 1);
    if (!out) {
        out_length = 0;
        return;
    }
    __builtin_memcpy(out, s, n);
    out[n] = 0;
    out_length = n;
}

static void set_out_str(const char *s) { set_out(s, strlen(s)); }

EXPORT("out_ptr") char *out_ptr(void) { return out; }
EXPORT("out_len") int out_len(void) { return (int)out_length; }

EXPORT("buf_alloc") char *buf_alloc(int len)
{
    if (len < 0)
        return NULL;
    return malloc((size_t)len + 1);
}

/* print(...) and console.log(...): one log line, the arguments separated by spaces; objects
 * and arrays as JSON. */
static JSValue js_print(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv)
{
    DynBuf b;
    dbuf_init(&b);
    for (int i = 0; i < argc; i++) {
        JSValue shown = JS_UNDEFINED;
        JSValueConst v = argv[i];
        if (JS_IsObject(v) && !JS_IsFunction(c, v) && !JS_IsError(v)) {
            shown = JS_JSONStringify(c, v, JS_UNDEFINED, JS_UNDEFINED);
            if (JS_IsException(shown)) {
                dbuf_free(&b);
                return shown;
            }
            if (!JS_IsUndefined(shown))
                v = shown;
        }
        size_t n;
        const char *s = JS_ToCStringLen(c, &n, v);
        JS_FreeValue(c, shown);
        if (!s) {
            dbuf_free(&b);
            return JS_EXCEPTION;
        }
        if (i > 0)
            dbuf_putc(&b, ' ');
        dbuf_put(&b, (const uint8_t *)s, n);
        JS_FreeCString(c, s);
    }
    host_log((const char *)b.buf, (int)b.size);
    dbuf_free(&b);
    return JS_UNDEFINED;
}

static void install_globals(void)
{
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue console = JS_NewObject(ctx);
    JS_SetPropertyStr(ctx, console, "log", JS_NewCFunction(ctx, js_print, "log", 1));
    JS_SetPropertyStr(ctx, console, "info", JS_NewCFunction(ctx, js_print, "info", 1));
    JS_SetPropertyStr(ctx, console, "warn", JS_NewCFunction(ctx, js_print, "warn", 1));
    JS_SetPropertyStr(ctx, console, "error", JS_NewCFunction(ctx, js_print, "error", 1));
    JS_SetPropertyStr(ctx, console, "debug", JS_NewCFunction(ctx, js_print, "debug", 1));
    JS_SetPropertyStr(ctx, global, "console", console);
    JS_SetPropertyStr(ctx, global, "print", JS_NewCFunction(ctx, js_print, "print", 1));
    JS_FreeValue(ctx, global);
}

/* Boots the engine (the snapshot is taken after this). */
EXPORT("wizer.initialize") void wizer_initialize(void)
{
    if (rt)
        return;
    rt = JS_NewRuntime();
    ctx = JS_NewContext(rt);
    install_globals();
    act_fn = JS_UNDEFINED;
    init_fn = JS_UNDEFINED;
}

/* Marks the current frame as the top of the JS stack. QuickJS turns its stack check off for
 * WASI (update_stack_limit), so the limit is set here. */
static void stack_top_here(void)
{
    JS_UpdateStackTop(rt);
    rt->stack_size = JS_STACK_BYTES;
    rt->stack_limit = rt->stack_top - JS_STACK_BYTES;
}

EXPORT("bot_seed") void bot_seed(uint64_t seed)
{
    wizer_initialize();
    /* xorshift64* must not start at 0. */
    ctx->random_state = seed ? seed : 0x9e3779b97f4a7c15ull;
}

/* Runs queued promise jobs (a bot may use async code); each is metered like any code. */
static int run_jobs(void)
{
    JSContext *c;
    int r;
    while ((r = JS_ExecutePendingJob(rt, &c)) > 0) {
    }
    return r;
}

/* The pending exception as the status and a message naming the bot's file and line:
 * "bot.js:12: TypeError: cannot read property 'x' of undefined" and the stack below it. */
static int report_exception(void)
{
    JSValue ex = JS_GetException(ctx);
    int status = ERROR;
    DynBuf b;
    dbuf_init(&b);
    const char *msg = JS_ToCString(ctx, ex);
    const char *stack = NULL;
    JSValue stack_val = JS_UNDEFINED;
    if (JS_IsObject(ex)) {
        stack_val = JS_GetPropertyStr(ctx, ex, "stack");
        if (JS_IsString(stack_val))
            stack = JS_ToCString(ctx, stack_val);
    }
    if (msg && strstr(msg, "Maximum call stack size exceeded"))
        status = STACK;
    else if (msg && !strcmp(msg, "InternalError: out of memory"))
        status = MEMORY;
    /* The first frame in the bot's own file gives the line. */
    const char *place = NULL;
    size_t name_len = strlen(bot_name);
    for (const char *p = stack; p && (p = strstr(p, bot_name)); p += name_len) {
        if (p[name_len] == ':') {
            place = p;
            break;
        }
    }
    if (place) {
        const char *end = place + name_len + 1;
        while (*end >= '0' && *end <= '9')
            end++;
        dbuf_put(&b, (const uint8_t *)place, end - place);
        dbuf_putstr(&b, ": ");
    }
    dbuf_putstr(&b, msg ? msg : "exception");
    if (stack && *stack) {
        dbuf_putc(&b, '\n');
        dbuf_putstr(&b, stack);
    }
    set_out((const char *)b.buf, b.size);
    dbuf_free(&b);
    if (msg)
        JS_FreeCString(ctx, msg);
    if (stack)
        JS_FreeCString(ctx, stack);
    JS_FreeValue(ctx, stack_val);
    JS_FreeValue(ctx, ex);
    return status;
}

static int lower_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a;
        char y = *b >= 'A' && *b <= 'Z' ? *b + 32 : *b;
        if (x != y)
            return 0;
    }
    return *a == *b;
}

/* The message for a bot without `act`: names a near miss if it defines one. */
static void report_no_act(JSValueConst scope, bool module)
{
    static const char *near[] = { "act", "acts", "action", "actions", "play", "move", "decide", "turn" };
    JSPropertyEnum *props = NULL;
    uint32_t n = 0;
    char found[96] = "";
    if (JS_IsObject(scope) &&
        JS_GetOwnPropertyNames(ctx, &props, &n, scope, JS_GPN_STRING_MASK | JS_GPN_ENUM_ONLY) == 0) {
        for (uint32_t i = 0; i < n && !found[0]; i++) {
            const char *name = JS_AtomToCString(ctx, props[i].atom);
            if (!name)
                continue;
            for (size_t k = 0; k < sizeof near / sizeof *near; k++) {
                if (lower_eq(name, near[k]) && strlen(name) < 64) {
                    JSValue v = JS_GetProperty(ctx, scope, props[i].atom);
                    snprintf(found, sizeof found, "`%s` (%s)", name,
                             JS_IsFunction(ctx, v) ? "a function" : "not a function");
                    JS_FreeValue(ctx, v);
                    break;
                }
            }
            JS_FreeCString(ctx, name);
        }
        JS_FreePropertyEnum(ctx, props, n);
    }
    char msg[400];
    snprintf(msg, sizeof msg,
             "%s: the bot defines no function `act`%s%s%s; %s",
             bot_name, found[0] ? ": it has " : "", found, found[0] ? ", and the name is case-sensitive" : "",
             module ? "export it: `export function act(obs) { ... }`"
                    : "define `function act(obs) { return obs.legal[0]; }` at the top level");
    set_out_str(msg);
}

/* Whether the source is an ES module: a line that starts with an `export` or `import`
 * statement (QuickJS's own JS_DetectModule boots a second runtime and takes every script that
 * also parses as a module for one). */
static bool is_module(const char *src)
{
    for (const char *line = src; line; line = strchr(line, '\n')) {
        while (*line == '\n' || *line == ' ' || *line == '\t' || *line == '\r')
            line++;
        for (int k = 0; k < 2; k++) {
            const char *word = k ? "import" : "export";
            size_t n = strlen(word);
            if (!strncmp(line, word, n) && strchr(" \t{*", line[n]) && line[n])
                return true;
        }
    }
    return false;
}

EXPORT("bot_load") int bot_load(char *src, int src_len, char *name, int name_len)
{
    wizer_initialize();
    stack_top_here();
    src[src_len] = 0;
    name[name_len] = 0;
    snprintf(bot_name, sizeof bot_name, "%s", name);
    free(name);
    set_out("", 0);
    bool module = is_module(src);
    JSValue scope;
    if (module) {
        JSValue fn = JS_Eval(ctx, src, src_len, bot_name, JS_EVAL_TYPE_MODULE | JS_EVAL_FLAG_COMPILE_ONLY);
        free(src);
        if (JS_IsException(fn))
            return report_exception();
        JSModuleDef *m = JS_VALUE_GET_PTR(fn);
        JSValue done = JS_EvalFunction(ctx, fn);
        if (JS_IsException(done))
            return report_exception();
        if (run_jobs() < 0) {
            JS_FreeValue(ctx, done);
            return report_exception();
        }
        /* A module's top level returns a promise: a rejection is its uncaught error. */
        if (JS_PromiseState(ctx, done) == JS_PROMISE_REJECTED) {
            JS_Throw(ctx, JS_PromiseResult(ctx, done));
            JS_FreeValue(ctx, done);
            return report_exception();
        }
        JS_FreeValue(ctx, done);
        scope = JS_GetModuleNamespace(ctx, m);
        if (JS_IsException(scope))
            return report_exception();
    } else {
        JSValue r = JS_Eval(ctx, src, src_len, bot_name, JS_EVAL_TYPE_GLOBAL);
        free(src);
        if (JS_IsException(r))
            return report_exception();
        JS_FreeValue(ctx, r);
        if (run_jobs() < 0)
            return report_exception();
        scope = JS_GetGlobalObject(ctx);
    }
    JS_FreeValue(ctx, act_fn);
    JS_FreeValue(ctx, init_fn);
    act_fn = JS_GetPropertyStr(ctx, scope, "act");
    init_fn = JS_GetPropertyStr(ctx, scope, "init");
    if (!JS_IsFunction(ctx, act_fn)) {
        report_no_act(scope, module);
        JS_FreeValue(ctx, scope);
        return INTERFACE;
    }
    JS_FreeValue(ctx, scope);
    return OK;
}

/* Parses `buf` as JSON (the host's, always valid) and calls `fn` with it. */
static JSValue call_with_json(JSValueConst fn, char *buf, int len, const char *what)
{
    buf[len] = 0;
    JSValue arg = JS_ParseJSON(ctx, buf, len, what);
    free(buf);
    if (JS_IsException(arg))
        return arg;
    JSValue r = JS_Call(ctx, fn, JS_UNDEFINED, 1, (JSValueConst *)&arg);
    JS_FreeValue(ctx, arg);
    return r;
}

EXPORT("bot_init") int bot_init(char *info, int len)
{
    stack_top_here();
    set_out("", 0);
    if (!JS_IsFunction(ctx, init_fn)) {
        free(info);
        return OK;
    }
    JSValue r = call_with_json(init_fn, info, len, "<init info>");
    if (JS_IsException(r))
        return report_exception();
    JS_FreeValue(ctx, r);
    if (run_jobs() < 0)
        return report_exception();
    return OK;
}

static const char *type_name(JSValueConst v)
{
    if (JS_IsUndefined(v))
        return "undefined";
    if (JS_IsNull(v))
        return "null";
    if (JS_IsBool(v))
        return "a boolean";
    if (JS_IsNumber(v) || JS_IsBigInt(v))
        return "a number";
    if (JS_IsArray(v))
        return "an array";
    if (JS_IsFunction(ctx, v))
        return "a function";
    if (JS_IsPromise(v))
        return "a promise (act must not be async)";
    return "an object";
}

EXPORT("bot_act") int bot_act(char *obs, int len)
{
    stack_top_here();
    JSValue r = call_with_json(act_fn, obs, len, "<observation>");
    if (JS_IsException(r))
        return report_exception();
    if (run_jobs() < 0) {
        JS_FreeValue(ctx, r);
        return report_exception();
    }
    if (JS_IsString(r)) {
        size_t n;
        const char *s = JS_ToCStringLen(ctx, &n, r);
        JS_FreeValue(ctx, r);
        if (!s)
            return report_exception();
        set_out(s, n);
        JS_FreeCString(ctx, s);
        return OK;
    }
    char msg[300];
    char shown[48] = "";
    if (JS_IsNumber(r) || JS_IsBool(r)) {
        const char *s = JS_ToCString(ctx, r);
        if (s) {
            snprintf(shown, sizeof shown, " (%s)", s);
            JS_FreeCString(ctx, s);
        }
    }
    const char *hint = JS_IsUndefined(r)
                           ? "does every path through act end in `return`?"
                           : JS_IsNumber(r) ? "return the action string, e.g. String(x) or obs.legal[i]"
                                            : "return one of the strings in obs.legal";
    snprintf(msg, sizeof msg, "act returned %s%s, not a string: %s", type_name(r), shown, hint);
    JS_FreeValue(ctx, r);
    set_out_str(msg);
    return INTERFACE;
}
