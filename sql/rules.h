/* rules.h - inside the SQL part: rules files (rules_file.c) and the rules
 * of a connection (rules.c); not used outside sql/. */
#ifndef JFRSQL_RULES_H
#define JFRSQL_RULES_H

#include "jfrsql.h"

/** The keys of a rule in a rules file, in the columns' order of jfr_rules. */
enum {
    JFRSQL_KEY_SEVERITY,
    JFRSQL_KEY_TITLE,
    JFRSQL_KEY_EVIDENCE,
    JFRSQL_KEY_SUBJECT,
    JFRSQL_KEY_FACT,
    JFRSQL_KEY_QUERY,
    JFRSQL_KEY_CONDITION,
    JFRSQL_KEY_LINK,
    JFRSQL_KEY_MAX,
    JFRSQL_KEY_MISSING,
    JFRSQL_RULE_KEYS
};

/** A rule as a file writes it: every value NULL when its key is absent. */
typedef struct jfrsql_rule_text {
    char *id;
    char *value[JFRSQL_RULE_KEYS];
    int line;                       /**< of its [section] */
    int key_line[JFRSQL_RULE_KEYS]; /**< of each key */
} jfrsql_rule_text;

/** Key `i`'s name ("severity", ...), NULL past the last. */
const char *jfrsql_rule_key(size_t i);

/**
 * Parse a rules file (`name` for messages): the rules in order. The keys
 * and the plain values (severity, max, missing) are checked; *errmsg
 * ("NAME:LINE: rule "ID": what"; sqlite3_free it) says what is wrong.
 * @return SQLITE_OK, SQLITE_ERROR, SQLITE_NOMEM.
 */
int jfrsql_rules_parse(jfrsql_rule_text **out, size_t *n, const char *text, size_t len,
                       const char *name, char **errmsg);
void jfrsql_rule_texts_free(jfrsql_rule_text *rules, size_t n);

/** The built-in SQL rules file, sql/rules.ini, compiled in (rules_ini.c). */
extern const unsigned char jfrsql_rules_ini[];
extern const size_t jfrsql_rules_ini_size;

/** Register jfr_load_rules() on `db` (jfrsql_register). */
int jfrsql_register_rules(sqlite3 *db);
/** Register jfr_check() over the files of `cat` (jfrsql_attach). */
int jfrsql_register_check(sqlite3 *db, jfrsql_catalog *cat);
/** The rows of temp.jfr_rules. */
sqlite3_int64 jfrsql_rules_count(sqlite3 *db);

#endif
