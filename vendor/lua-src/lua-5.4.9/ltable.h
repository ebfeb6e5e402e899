/*
** $Id: ltable.h $
** Lua tables (hash)
** See Copyright Notice in lua.h
*/

#ifndef ltable_h
#define ltable_h

#include "lobject.h"


#define gnode(t,i)	(&(t)->node[i])
#define gval(n)		(&(n)->i_val)
#define gnext(n)	((n)->u.next)


/*
** Clear all bits of fast-access metamethods, which means that the table
** may have any of these metamethods. (First access that fails after the
** clearing will set the bit again.)
*/
#define invalidateTMcache(t)	((t)->flags &= ~maskflags)


/* true when 't' is using 'dummynode' as its hash part */
#define isdummy(t)		((t)->node == &luaH_dummynode_)

LUAI_DDEC(const Node luaH_dummynode_;)


/* allocated size for hash nodes */
#define allocsizenode(t)	(isdummy(t) ? 0 : sizenode(t))


/* returns the Node, given the value of a table entry */
#define nodefromval(v)	cast(Node *, (v))


/*
** cardarena: the lookups charge a long hash chain's walk to 'L's fuel count
** (ltable.c, 'CHAINFREE'); the plain names pass no state and charge nothing.
*/
LUAI_FUNC const TValue *luaH_getintc (lua_State *L, Table *t, lua_Integer key);
LUAI_FUNC const TValue *luaH_getshortstrc (lua_State *L, Table *t,
                                           TString *key);
LUAI_FUNC const TValue *luaH_getstrc (lua_State *L, Table *t, TString *key);
LUAI_FUNC const TValue *luaH_getc (lua_State *L, Table *t, const TValue *key);
LUAI_FUNC lua_Unsigned luaH_getnc (lua_State *L, Table *t);
#define luaH_getint(t,k)	luaH_getintc(NULL, t, k)
#define luaH_getshortstr(t,k)	luaH_getshortstrc(NULL, t, k)
#define luaH_getstr(t,k)	luaH_getstrc(NULL, t, k)
#define luaH_get(t,k)	luaH_getc(NULL, t, k)
#define luaH_getn(t)	luaH_getnc(NULL, t)
LUAI_FUNC void luaH_setint (lua_State *L, Table *t, lua_Integer key,
                                                    TValue *value);
LUAI_FUNC void luaH_set (lua_State *L, Table *t, const TValue *key,
                                                 TValue *value);
LUAI_FUNC void luaH_finishset (lua_State *L, Table *t, const TValue *key,
                                       const TValue *slot, TValue *value);
LUAI_FUNC Table *luaH_new (lua_State *L);
LUAI_FUNC l_uint32 luaH_objid (const GCObject *o);
LUAI_FUNC size_t luaH_cfuncid (lua_CFunction f);
LUAI_FUNC void luaH_resize (lua_State *L, Table *t, unsigned int nasize,
                                                    unsigned int nhsize);
LUAI_FUNC void luaH_resizearray (lua_State *L, Table *t, unsigned int nasize);
LUAI_FUNC void luaH_free (lua_State *L, Table *t);
LUAI_FUNC int luaH_next (lua_State *L, Table *t, StkId key);
LUAI_FUNC unsigned int luaH_realasize (const Table *t);


#if defined(LUA_DEBUG)
LUAI_FUNC Node *luaH_mainposition (const Table *t, const TValue *key);
#endif


#endif
