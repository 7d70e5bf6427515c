//go:build cgo

package parser

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Kind is holdfast's own name for a syntax node kind. Only the kinds the
// later stages look at have a name; everything else is KindOther, and
// anonymous tokens (punctuation, operators) are KindToken: read their text.
type Kind uint8

// Node kinds. kindNames lists the grammar names in the same order.
const (
	KindOther Kind = iota
	KindToken
	KindError
	KindTranslationUnit
	KindFunctionDefinition
	KindDeclaration
	KindFieldDeclaration
	KindInitDeclarator
	KindCompoundStatement
	KindForStatement
	KindForRangeLoop
	KindWhileStatement
	KindDoStatement
	KindIfStatement
	KindSwitchStatement
	KindCaseStatement
	KindReturnStatement
	KindExpressionStatement
	KindTryStatement
	KindCatchClause
	KindCallExpression
	KindFieldExpression
	KindIdentifier
	KindFieldIdentifier
	KindQualifiedIdentifier
	KindNamespaceIdentifier
	KindTypeIdentifier
	KindTemplateType
	KindTemplateFunction
	KindTemplateMethod
	KindTemplateArgumentList
	KindTypeDescriptor
	KindLambdaExpression
	KindLambdaCaptureSpecifier
	KindLambdaDefaultCapture
	KindPointerExpression
	KindPointerDeclarator
	KindReferenceDeclarator
	KindFunctionDeclarator
	KindParameterList
	KindParameterDeclaration
	KindOptionalParameterDeclaration
	KindArgumentList
	KindAssignmentExpression
	KindUnaryExpression
	KindBinaryExpression
	KindUpdateExpression
	KindParenthesizedExpression
	KindCastExpression
	KindNewExpression
	KindDeleteExpression
	KindThis
	KindInitializerList
	KindSubscriptExpression
	KindClassSpecifier
	KindStructSpecifier
	KindFieldDeclarationList
	KindNamespaceDefinition
	KindTemplateDeclaration
	KindDestructorName
	KindOperatorName
	KindPrimitiveType
	KindSizedTypeSpecifier
	KindPlaceholderTypeSpecifier
	KindTypeQualifier
	KindStringLiteral
	KindNumberLiteral
	KindComment
	KindDeclarationList
	KindConditionalExpression
	KindCommaExpression
	KindThrowStatement
	KindFieldInitializerList
	KindFieldInitializer
	KindConditionClause
	KindBreakStatement
	KindContinueStatement
	KindNullptr
	KindTrue
	KindFalse
	KindLinkageSpecification
	KindAbstractPointerDeclarator
	KindAbstractReferenceDeclarator
	KindTrailingReturnType
	KindStructuredBindingDeclarator
	KindArrayDeclarator
	KindCoReturnStatement
	KindPreprocIf
	KindPreprocIfdef
	KindPreprocElse
	KindPreprocElif
	KindDependentType
	KindInitStatement
	KindLabeledStatement
	KindAliasDeclaration
	KindTypeDefinition
	KindAbstractFunctionDeclarator
	KindCompoundLiteralExpression
	KindCharLiteral
	KindTypeParameterDeclaration
	KindOptionalTypeParameterDeclaration
	KindUsingDeclaration
	KindGotoStatement
	KindSizeofExpression
	KindAlignofExpression
	KindOffsetofExpression
	KindPreprocDef
	KindPreprocFunctionDef
	// KindMacroBlock is holdfast's own: a statement macro applied to a
	// block inside a function body (FOREACH(args) { ... }), which the
	// grammar reads as a nested function definition; see macroBlocks.
	KindMacroBlock
	KindEnumerator
	KindCoYieldStatement
	kindCount
)

var kindNames = [...]string{
	KindOther:                            "",
	KindToken:                            "",
	KindError:                            "ERROR",
	KindTranslationUnit:                  "translation_unit",
	KindFunctionDefinition:               "function_definition",
	KindDeclaration:                      "declaration",
	KindFieldDeclaration:                 "field_declaration",
	KindInitDeclarator:                   "init_declarator",
	KindCompoundStatement:                "compound_statement",
	KindForStatement:                     "for_statement",
	KindForRangeLoop:                     "for_range_loop",
	KindWhileStatement:                   "while_statement",
	KindDoStatement:                      "do_statement",
	KindIfStatement:                      "if_statement",
	KindSwitchStatement:                  "switch_statement",
	KindCaseStatement:                    "case_statement",
	KindReturnStatement:                  "return_statement",
	KindExpressionStatement:              "expression_statement",
	KindTryStatement:                     "try_statement",
	KindCatchClause:                      "catch_clause",
	KindCallExpression:                   "call_expression",
	KindFieldExpression:                  "field_expression",
	KindIdentifier:                       "identifier",
	KindFieldIdentifier:                  "field_identifier",
	KindQualifiedIdentifier:              "qualified_identifier",
	KindNamespaceIdentifier:              "namespace_identifier",
	KindTypeIdentifier:                   "type_identifier",
	KindTemplateType:                     "template_type",
	KindTemplateFunction:                 "template_function",
	KindTemplateMethod:                   "template_method",
	KindTemplateArgumentList:             "template_argument_list",
	KindTypeDescriptor:                   "type_descriptor",
	KindLambdaExpression:                 "lambda_expression",
	KindLambdaCaptureSpecifier:           "lambda_capture_specifier",
	KindLambdaDefaultCapture:             "lambda_default_capture",
	KindPointerExpression:                "pointer_expression",
	KindPointerDeclarator:                "pointer_declarator",
	KindReferenceDeclarator:              "reference_declarator",
	KindFunctionDeclarator:               "function_declarator",
	KindParameterList:                    "parameter_list",
	KindParameterDeclaration:             "parameter_declaration",
	KindOptionalParameterDeclaration:     "optional_parameter_declaration",
	KindArgumentList:                     "argument_list",
	KindAssignmentExpression:             "assignment_expression",
	KindUnaryExpression:                  "unary_expression",
	KindBinaryExpression:                 "binary_expression",
	KindUpdateExpression:                 "update_expression",
	KindParenthesizedExpression:          "parenthesized_expression",
	KindCastExpression:                   "cast_expression",
	KindNewExpression:                    "new_expression",
	KindDeleteExpression:                 "delete_expression",
	KindThis:                             "this",
	KindInitializerList:                  "initializer_list",
	KindSubscriptExpression:              "subscript_expression",
	KindClassSpecifier:                   "class_specifier",
	KindStructSpecifier:                  "struct_specifier",
	KindFieldDeclarationList:             "field_declaration_list",
	KindNamespaceDefinition:              "namespace_definition",
	KindTemplateDeclaration:              "template_declaration",
	KindDestructorName:                   "destructor_name",
	KindOperatorName:                     "operator_name",
	KindPrimitiveType:                    "primitive_type",
	KindSizedTypeSpecifier:               "sized_type_specifier",
	KindPlaceholderTypeSpecifier:         "placeholder_type_specifier",
	KindTypeQualifier:                    "type_qualifier",
	KindStringLiteral:                    "string_literal",
	KindNumberLiteral:                    "number_literal",
	KindEnumerator:                       "enumerator",
	KindComment:                          "comment",
	KindDeclarationList:                  "declaration_list",
	KindConditionalExpression:            "conditional_expression",
	KindCommaExpression:                  "comma_expression",
	KindThrowStatement:                   "throw_statement",
	KindFieldInitializerList:             "field_initializer_list",
	KindFieldInitializer:                 "field_initializer",
	KindConditionClause:                  "condition_clause",
	KindBreakStatement:                   "break_statement",
	KindContinueStatement:                "continue_statement",
	KindNullptr:                          "null",
	KindTrue:                             "true",
	KindFalse:                            "false",
	KindLinkageSpecification:             "linkage_specification",
	KindAbstractPointerDeclarator:        "abstract_pointer_declarator",
	KindAbstractReferenceDeclarator:      "abstract_reference_declarator",
	KindTrailingReturnType:               "trailing_return_type",
	KindStructuredBindingDeclarator:      "structured_binding_declarator",
	KindArrayDeclarator:                  "array_declarator",
	KindCoReturnStatement:                "co_return_statement",
	KindPreprocIf:                        "preproc_if",
	KindPreprocIfdef:                     "preproc_ifdef",
	KindPreprocElse:                      "preproc_else",
	KindPreprocElif:                      "preproc_elif",
	KindDependentType:                    "dependent_type",
	KindInitStatement:                    "init_statement",
	KindLabeledStatement:                 "labeled_statement",
	KindAliasDeclaration:                 "alias_declaration",
	KindTypeDefinition:                   "type_definition",
	KindAbstractFunctionDeclarator:       "abstract_function_declarator",
	KindCompoundLiteralExpression:        "compound_literal_expression",
	KindCharLiteral:                      "char_literal",
	KindTypeParameterDeclaration:         "type_parameter_declaration",
	KindUsingDeclaration:                 "using_declaration",
	KindOptionalTypeParameterDeclaration: "optional_type_parameter_declaration",
	KindGotoStatement:                    "goto_statement",
	KindSizeofExpression:                 "sizeof_expression",
	KindAlignofExpression:                "alignof_expression",
	KindOffsetofExpression:               "offsetof_expression",
	KindPreprocDef:                       "preproc_def",
	KindPreprocFunctionDef:               "preproc_function_def",
	KindMacroBlock:                       "(macro block)",
	KindCoYieldStatement:                 "co_yield_statement",
}

func (k Kind) String() string {
	switch {
	case k == KindOther:
		return "other"
	case k == KindToken:
		return "token"
	case int(k) < len(kindNames):
		return kindNames[k]
	}
	return "kind?"
}

// Field is holdfast's name for a grammar field.
type Field uint8

// Fields. fieldNames lists the grammar names in the same order.
const (
	FieldNone Field = iota
	FieldName
	FieldDeclarator
	FieldType
	FieldBody
	FieldFunction
	FieldArguments
	FieldArgument
	FieldField
	FieldOperator
	FieldLeft
	FieldRight
	FieldValue
	FieldCondition
	FieldConsequence
	FieldAlternative
	FieldParameters
	FieldCaptures
	FieldInitializer
	FieldUpdate
	FieldDefaultValue
	FieldScope
	FieldIndices
	FieldPlacement
	FieldLabel
	fieldCount
)

var fieldNames = [...]string{
	FieldNone:         "",
	FieldName:         "name",
	FieldDeclarator:   "declarator",
	FieldType:         "type",
	FieldBody:         "body",
	FieldFunction:     "function",
	FieldArguments:    "arguments",
	FieldArgument:     "argument",
	FieldField:        "field",
	FieldOperator:     "operator",
	FieldLeft:         "left",
	FieldRight:        "right",
	FieldValue:        "value",
	FieldCondition:    "condition",
	FieldConsequence:  "consequence",
	FieldAlternative:  "alternative",
	FieldParameters:   "parameters",
	FieldCaptures:     "captures",
	FieldInitializer:  "initializer",
	FieldUpdate:       "update",
	FieldDefaultValue: "default_value",
	FieldScope:        "scope",
	FieldIndices:      "indices",
	FieldPlacement:    "placement",
	FieldLabel:        "label",
}

func (f Field) String() string {
	if int(f) < len(fieldNames) {
		return fieldNames[f]
	}
	return "field?"
}

// grammar maps the C++ grammar's symbol and field ids to Kind and Field.
// It is computed once per process from the grammar itself and never
// changes afterwards.
type grammar struct {
	lang   *sitter.Language
	kinds  []Kind
	fields []Field
}

var cppGrammar = sync.OnceValue(func() *grammar {
	lang := sitter.NewLanguage(cppLanguage())
	byName := make(map[string]Kind, len(kindNames))
	for k, name := range kindNames {
		if name != "" {
			byName[name] = Kind(k)
		}
	}
	g := &grammar{lang: lang, kinds: make([]Kind, lang.NodeKindCount()+1)}
	for id := range g.kinds {
		name := lang.NodeKindForId(uint16(id))
		switch k, ok := byName[name]; {
		case ok && (lang.NodeKindIsNamed(uint16(id)) || k == KindTrue || k == KindFalse || k == KindNullptr || k == KindThis):
			g.kinds[id] = k
		case !lang.NodeKindIsNamed(uint16(id)):
			g.kinds[id] = KindToken
		}
	}
	g.fields = make([]Field, lang.FieldCount()+1)
	for f, name := range fieldNames {
		if name == "" {
			continue
		}
		if id := lang.FieldIdForName(name); id != 0 {
			g.fields[id] = Field(f)
		}
	}
	return g
})
