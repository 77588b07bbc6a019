/**
 * Chat templates of public models, written out as published in their tokenizer_config.json
 * (long tool-use branches shortened where noted), rendered with the conventional context
 * (`messages`, `bos_token`, `eos_token`, `add_generation_prompt`, `tools`).
 */
import type { JinjaCorpusCase } from "./jinja-corpus-types.ts";

const chat = [
  { role: "user", content: "Hello, how are you?" },
  { role: "assistant", content: "I'm doing great. How can I help you today?" },
  { role: "user", content: "I'd like to show off how chat templating works!" },
];
const chatWithSystem = [{ role: "system", content: "You are a friendly chatbot." }, ...chat];
const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

// meta-llama/Meta-Llama-3-8B-Instruct
const LLAMA_3 = String.raw`{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}`;

// meta-llama/Llama-3.1-8B-Instruct (tool-use branches shortened)
const LLAMA_3_1 = String.raw`{{- bos_token }}
{%- if not date_string is defined %}
    {%- if strftime_now is defined %}
        {%- set date_string = strftime_now("%d %b %Y") %}
    {%- else %}
        {%- set date_string = "26 Jul 2024" %}
    {%- endif %}
{%- endif %}

{#- This block extracts the system message, so we can slot it into the right place. #}
{%- if messages[0]['role'] == 'system' %}
    {%- set system_message = messages[0]['content']|trim %}
    {%- set messages = messages[1:] %}
{%- else %}
    {%- set system_message = "" %}
{%- endif %}

{#- System message #}
{{- "<|start_header_id|>system<|end_header_id|>\n\n" }}
{{- "Cutting Knowledge Date: December 2023\n" }}
{{- "Today Date: " + date_string + "\n\n" }}
{{- system_message }}
{{- "<|eot_id|>" }}

{%- for message in messages %}
    {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' }}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}
{%- endif %}
`;

// mistralai/Mistral-7B-Instruct-v0.1
const MISTRAL = String.raw`{{ bos_token }}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'] + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ message['content'] + eos_token}}{% else %}{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}{% endfor %}`;

// mistralai/Mistral-7B-Instruct-v0.3 (tool calls and results shortened)
const MISTRAL_V3_TOOLS = String.raw`{%- if messages[0]["role"] == "system" %}
    {%- set system_message = messages[0]["content"] %}
    {%- set loop_messages = messages[1:] %}
{%- else %}
    {%- set loop_messages = messages %}
{%- endif %}
{%- if not tools is defined %}
    {%- set tools = none %}
{%- endif %}
{%- set user_messages = loop_messages | selectattr("role", "equalto", "user") | list %}

{{- bos_token }}
{%- for message in loop_messages %}
    {%- if message["role"] == "user" %}
        {%- if tools is not none and (message == user_messages[-1]) %}
            {{- "[AVAILABLE_TOOLS] [" }}
            {%- for tool in tools %}
                {%- set tool = tool.function %}
                {{- '{"type": "function", "function": {' }}
                {%- for key, val in tool.items() if key != "return" %}
                    {%- if val is string %}
                        {{- '"' + key + '": "' + val + '"' }}
                    {%- else %}
                        {{- '"' + key + '": ' + val|tojson }}
                    {%- endif %}
                    {%- if not loop.last %}
                        {{- ", " }}
                    {%- endif %}
                {%- endfor %}
                {{- "}}" }}
                {%- if not loop.last %}
                    {{- ", " }}
                {%- else %}
                    {{- "]" }}
                {%- endif %}
            {%- endfor %}
            {{- "[/AVAILABLE_TOOLS]" }}
        {%- endif %}
        {%- if loop.last and system_message is defined %}
            {{- "[INST] " + system_message + "\n\n" + message["content"] + "[/INST]" }}
        {%- else %}
            {{- "[INST] " + message["content"] + "[/INST]" }}
        {%- endif %}
    {%- elif message["role"] == "assistant" %}
        {{- " " + message["content"]|trim + eos_token}}
    {%- endif %}
{%- endfor %}
`;

// Qwen/Qwen1.5-7B-Chat, Qwen2 (ChatML with a default system prompt)
const CHATML_QWEN2 = String.raw`{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}`;

// Qwen/Qwen2.5-7B-Instruct
const QWEN_2_5 = String.raw`{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\n<tool_call>\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' }}
        {{- message.content }}
        {{- '\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
`;

// google/gemma-7b-it
const GEMMA = String.raw`{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}{{ '<start_of_turn>' + role + '\n' + message['content'] | trim + '<end_of_turn>\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\n'}}{% endif %}`;

// google/gemma-3-4b-it
const GEMMA_3 = String.raw`{{ bos_token }}
{%- if messages[0]['role'] == 'system' -%}
    {%- if messages[0]['content'] is string -%}
        {%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}
    {%- else -%}
        {%- set first_user_prefix = messages[0]['content'][0]['text'] + '\n\n' -%}
    {%- endif -%}
    {%- set loop_messages = messages[1:] -%}
{%- else -%}
    {%- set first_user_prefix = "" -%}
    {%- set loop_messages = messages -%}
{%- endif -%}
{%- for message in loop_messages -%}
    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}
        {{ raise_exception("Conversation roles must alternate user/assistant/user/assistant/...") }}
    {%- endif -%}
    {%- if (message['role'] == 'assistant') -%}
        {%- set role = "model" -%}
    {%- else -%}
        {%- set role = message['role'] -%}
    {%- endif -%}
    {{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else "") }}
    {%- if message['content'] is string -%}
        {{ message['content'] | trim }}
    {%- elif message['content'] is iterable -%}
        {%- for item in message['content'] -%}
            {%- if item['type'] == 'image' -%}
                {{ '<start_of_image>' }}
            {%- elif item['type'] == 'text' -%}
                {{ item['text'] | trim }}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {{ raise_exception("Invalid content type") }}
    {%- endif -%}
    {{ '<end_of_turn>\n' }}
{%- endfor -%}
{%- if add_generation_prompt -%}
    {{'<start_of_turn>model\n'}}
{%- endif -%}
`;

// microsoft/Phi-3-mini-4k-instruct
const PHI_3 = String.raw`{% for message in messages %}{% if message['role'] == 'system' %}{{'<|system|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'user' %}{{'<|user|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'assistant' %}{{'<|assistant|>\n' + message['content'] + '<|end|>\n'}}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% else %}{{ eos_token }}{% endif %}`;

// HuggingFaceH4/zephyr-7b-beta (newlines inside the string literals are real newlines)
const ZEPHYR = `{% for message in messages %}
{% if message['role'] == 'user' %}
{{ '<|user|>
' + message['content'] + eos_token }}
{% elif message['role'] == 'system' %}
{{ '<|system|>
' + message['content'] + eos_token }}
{% elif message['role'] == 'assistant' %}
{{ '<|assistant|>
'  + message['content'] + eos_token }}
{% endif %}
{% if loop.last and add_generation_prompt %}
{{ '<|assistant|>' }}
{% endif %}
{% endfor %}`;

// lmsys/vicuna-7b-v1.5 (community chat template)
const VICUNA = String.raw`{% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}{% set system_message = messages[0]['content'] %}{% else %}{% set loop_messages = messages %}{% set system_message = 'A chat between a curious user and an artificial intelligence assistant. The assistant gives helpful, detailed, and polite answers to the user\'s questions.' %}{% endif %}{{ system_message }}{% for message in loop_messages %}{% if message['role'] == 'user' %}{{ ' USER: ' + message['content'] }}{% elif message['role'] == 'assistant' %}{{ ' ASSISTANT: ' + message['content'] + eos_token }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ ' ASSISTANT:' }}{% endif %}`;

// Alpaca instruction format (as used by Alpaca fine-tunes on the Hub)
const ALPACA = String.raw`{% for message in messages %}{% if message['role'] == 'system' %}{{ message['content'] + '\n\n' }}{% elif message['role'] == 'user' %}{{ '### Instruction:\n' + message['content'] + '\n\n' }}{% elif message['role'] == 'assistant' %}{{ '### Response:\n' + message['content'] + eos_token + '\n\n' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '### Response:\n' }}{% endif %}`;

// deepseek-ai/deepseek-llm-7b-chat
const DEEPSEEK = String.raw`{% if not add_generation_prompt is defined %}{% set add_generation_prompt = false %}{% endif %}{{ bos_token }}{% for message in messages %}{% if message['role'] == 'user' %}{{ 'User: ' + message['content'] + '\n\n' }}{% elif message['role'] == 'assistant' %}{{ 'Assistant: ' + message['content'] + eos_token }}{% elif message['role'] == 'system' %}{{ message['content'] + '\n\n' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}`;

// deepseek-ai/DeepSeek-R1 (tool branches shortened)
const DEEPSEEK_R1 = String.raw`{% if not add_generation_prompt is defined %}{% set add_generation_prompt = false %}{% endif %}{% set ns = namespace(is_first=false, is_tool=false, system_prompt='') %}{%- for message in messages %}{%- if message['role'] == 'system' %}{% set ns.system_prompt = message['content'] %}{%- endif %}{%- endfor %}{{ bos_token }}{{ ns.system_prompt }}{%- for message in messages %}{%- if message['role'] == 'user' %}{{'<｜User｜>' + message['content']}}{%- endif %}{%- if message['role'] == 'assistant' %}{% set content = message['content'] %}{% if '</think>' in content %}{% set content = content.split('</think>')[-1] %}{% endif %}{{'<｜Assistant｜>' + content + '<｜end▁of▁sentence｜>'}}{%- endif %}{%- endfor %}{% if add_generation_prompt %}{{'<｜Assistant｜><think>\n'}}{% endif %}`;

// CohereForAI/c4ai-command-r-v01 (default chat template, without the grounded-generation parts)
const COMMAND_R = String.raw`{{ bos_token }}{% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}{% set system_message = messages[0]['content'] %}{% elif false == true %}{% set loop_messages = messages %}{% set system_message = 'You are Command-R, a brilliant, sophisticated, AI-assistant trained to assist human users by providing thorough responses. You are trained by Cohere.' %}{% else %}{% set loop_messages = messages %}{% set system_message = false %}{% endif %}{% if system_message != false %}{{ '<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>' + system_message + '<|END_OF_TURN_TOKEN|>' }}{% endif %}{% for message in loop_messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% set content = message['content'] %}{% if message['role'] == 'user' %}{{ '<|START_OF_TURN_TOKEN|><|USER_TOKEN|>' + content.strip() + '<|END_OF_TURN_TOKEN|>' }}{% elif message['role'] == 'assistant' %}{{ '<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>'  + content.strip() + '<|END_OF_TURN_TOKEN|>' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>' }}{% endif %}`;

// meta-llama/Llama-2-7b-chat-hf
const LLAMA_2 = String.raw`{% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}{% set system_message = messages[0]['content'] %}{% else %}{% set loop_messages = messages %}{% set system_message = false %}{% endif %}{% for message in loop_messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if loop.index0 == 0 and system_message != false %}{% set content = '<<SYS>>\n' + system_message + '\n<</SYS>>\n\n' + message['content'] %}{% else %}{% set content = message['content'] %}{% endif %}{% if message['role'] == 'user' %}{{ bos_token + '[INST] ' + content.strip() + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ ' '  + content.strip() + ' ' + eos_token }}{% endif %}{% endfor %}`;

// openchat/openchat-3.5-0106
const OPENCHAT = String.raw`{{ bos_token }}{% for message in messages %}{{ 'GPT4 Correct ' + message['role'].title() + ': ' + message['content'] + '<|end_of_turn|>'}}{% endfor %}{% if add_generation_prompt %}{{ 'GPT4 Correct Assistant:' }}{% endif %}`;

const NOW = new Date("2024-05-06T07:08:09Z");
const REASONING = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "2+2?" },
  { role: "assistant", content: "<think>easy</think>4" },
  { role: "user", content: "3+3?" },
];

export const chatTemplateCases: readonly JinjaCorpusCase[] = [
  {
    name: "Llama 3 Instruct with a system message and a generation prompt",
    template: LLAMA_3,
    context: { messages: chatWithSystem, bos_token: "<|begin_of_text|>", add_generation_prompt: true },
    expected:
      "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are a friendly chatbot.<|eot_id|>" +
      "<|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|>" +
      "<|start_header_id|>assistant<|end_header_id|>\n\nI'm doing great. How can I help you today?<|eot_id|>" +
      "<|start_header_id|>user<|end_header_id|>\n\nI'd like to show off how chat templating works!<|eot_id|>" +
      "<|start_header_id|>assistant<|end_header_id|>\n\n",
  },
  {
    name: "Llama 3.1 dates the system header with strftime_now from the injected clock",
    template: LLAMA_3_1,
    context: { messages: chatWithSystem, bos_token: "<|begin_of_text|>", add_generation_prompt: true },
    options: { now: NOW },
    expected:
      "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 06 May 2024\n\n" +
      "You are a friendly chatbot.<|eot_id|>" +
      "<|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|>" +
      "<|start_header_id|>assistant<|end_header_id|>\n\nI'm doing great. How can I help you today?<|eot_id|>" +
      "<|start_header_id|>user<|end_header_id|>\n\nI'd like to show off how chat templating works!<|eot_id|>" +
      "<|start_header_id|>assistant<|end_header_id|>\n\n",
  },
  {
    name: "Llama 3.1 without a clock or system message uses its fallback date",
    template: LLAMA_3_1,
    context: { messages: chat.slice(0, 1), bos_token: "<|begin_of_text|>", add_generation_prompt: false },
    expected:
      "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>" +
      "<|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|>",
  },
  {
    name: "Mistral Instruct alternates [INST] turns",
    template: MISTRAL,
    context: { messages: chat, bos_token: "<s>", eos_token: "</s>" },
    expected:
      "<s>[INST] Hello, how are you? [/INST]I'm doing great. How can I help you today?</s>[INST] I'd like to show off how chat templating works! [/INST]",
  },
  {
    name: "Mistral Instruct rejects a system message through raise_exception",
    template: MISTRAL,
    context: { messages: chatWithSystem, bos_token: "<s>", eos_token: "</s>" },
    expected: MISTRAL,
    error: "template_raised",
  },
  {
    name: "Mistral v0.3 lists available tools before the last user turn",
    template: MISTRAL_V3_TOOLS,
    context: {
      messages: [{ role: "user", content: "What's the weather in Paris?" }],
      tools: [{ type: "function", function: { name: "get_weather", description: "Get the weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }],
      bos_token: "<s>",
      eos_token: "</s>",
    },
    expected:
      '<s>[AVAILABLE_TOOLS] [{"type": "function", "function": {"name": "get_weather", "description": "Get the weather", ' +
      '"parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}][/AVAILABLE_TOOLS]' +
      "[INST] What's the weather in Paris?[/INST]",
  },
  {
    name: "Mistral v0.3 folds the system message into the last user turn",
    template: MISTRAL_V3_TOOLS,
    context: {
      messages: [
        { role: "system", content: "Be nice." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: " Hello! " },
        { role: "user", content: "Bye" },
      ],
      bos_token: "<s>",
      eos_token: "</s>",
    },
    expected: "<s>[INST] Hi[/INST] Hello!</s>[INST] Be nice.\n\nBye[/INST]",
  },
  {
    name: "ChatML (Qwen2) adds its default system prompt",
    template: CHATML_QWEN2,
    context: { messages: chat, add_generation_prompt: true },
    expected:
      "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n" +
      "<|im_start|>user\nHello, how are you?<|im_end|>\n" +
      "<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n" +
      "<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n" +
      "<|im_start|>assistant\n",
  },
  {
    name: "ChatML (Qwen2) keeps a given system prompt",
    template: CHATML_QWEN2,
    context: { messages: chatWithSystem.slice(0, 2), add_generation_prompt: false },
    expected: "<|im_start|>system\nYou are a friendly chatbot.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n",
  },
  {
    name: "Qwen2.5 renders tools, a tool call and a tool response",
    template: QWEN_2_5,
    context: {
      tools: [weatherTool],
      messages: [
        { role: "user", content: "What's the weather in Paris?" },
        { role: "assistant", content: "", tool_calls: [{ type: "function", function: { name: "get_weather", arguments: { city: "Paris" } } }] },
        { role: "tool", content: '{"temp": 21}' },
      ],
      add_generation_prompt: true,
    },
    expected:
      "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n\n# Tools\n\n" +
      "You may call one or more functions to assist with the user query.\n\n" +
      "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
      '{"type": "function", "function": {"name": "get_weather", "description": "Get the weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}' +
      "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
      '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n' +
      "<|im_start|>user\nWhat's the weather in Paris?<|im_end|>\n" +
      '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>\n' +
      '<|im_start|>user\n<tool_response>\n{"temp": 21}\n</tool_response><|im_end|>\n' +
      "<|im_start|>assistant\n",
  },
  {
    name: "Qwen2.5 without tools uses the plain system header",
    template: QWEN_2_5,
    context: { messages: chatWithSystem.slice(0, 2), add_generation_prompt: true },
    expected: "<|im_start|>system\nYou are a friendly chatbot.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\n",
  },
  {
    name: "Gemma maps the assistant role to model",
    template: GEMMA,
    context: { messages: chat, bos_token: "<bos>", add_generation_prompt: true },
    expected:
      "<bos><start_of_turn>user\nHello, how are you?<end_of_turn>\n" +
      "<start_of_turn>model\nI'm doing great. How can I help you today?<end_of_turn>\n" +
      "<start_of_turn>user\nI'd like to show off how chat templating works!<end_of_turn>\n" +
      "<start_of_turn>model\n",
  },
  {
    name: "Gemma 3 prefixes the first user turn with the system prompt",
    template: GEMMA_3,
    context: { messages: chatWithSystem, bos_token: "<bos>", add_generation_prompt: true },
    expected:
      "<bos><start_of_turn>user\nYou are a friendly chatbot.\n\nHello, how are you?<end_of_turn>\n" +
      "<start_of_turn>model\nI'm doing great. How can I help you today?<end_of_turn>\n" +
      "<start_of_turn>user\nI'd like to show off how chat templating works!<end_of_turn>\n" +
      "<start_of_turn>model\n",
  },
  {
    name: "Gemma 3 renders multimodal content parts",
    template: GEMMA_3,
    context: { messages: [{ role: "user", content: [{ type: "image" }, { type: "text", text: " Describe this. " }] }], bos_token: "<bos>", add_generation_prompt: true },
    expected: "<bos><start_of_turn>user\n<start_of_image>Describe this.<end_of_turn>\n<start_of_turn>model\n",
  },
  {
    name: "Phi-3 ends with eos when no generation prompt is requested",
    template: PHI_3,
    context: { messages: chatWithSystem, eos_token: "<|endoftext|>", add_generation_prompt: false },
    expected:
      "<|system|>\nYou are a friendly chatbot.<|end|>\n<|user|>\nHello, how are you?<|end|>\n" +
      "<|assistant|>\nI'm doing great. How can I help you today?<|end|>\n" +
      "<|user|>\nI'd like to show off how chat templating works!<|end|>\n<|endoftext|>",
  },
  {
    name: "Zephyr keeps the newline after each expression under trim_blocks",
    template: ZEPHYR,
    context: { messages: chatWithSystem, eos_token: "</s>", add_generation_prompt: true },
    expected:
      "<|system|>\nYou are a friendly chatbot.</s>\n<|user|>\nHello, how are you?</s>\n" +
      "<|assistant|>\nI'm doing great. How can I help you today?</s>\n" +
      "<|user|>\nI'd like to show off how chat templating works!</s>\n<|assistant|>\n",
  },
  {
    name: "Vicuna uses its default system message",
    template: VICUNA,
    context: { messages: chat, eos_token: "</s>", add_generation_prompt: true },
    expected:
      "A chat between a curious user and an artificial intelligence assistant. The assistant gives helpful, detailed, and polite answers to the user's questions." +
      " USER: Hello, how are you? ASSISTANT: I'm doing great. How can I help you today?</s>" +
      " USER: I'd like to show off how chat templating works! ASSISTANT:",
  },
  {
    name: "Alpaca instruction/response blocks",
    template: ALPACA,
    context: { messages: chatWithSystem, eos_token: "</s>", add_generation_prompt: true },
    expected:
      "You are a friendly chatbot.\n\n### Instruction:\nHello, how are you?\n\n" +
      "### Response:\nI'm doing great. How can I help you today?</s>\n\n" +
      "### Instruction:\nI'd like to show off how chat templating works!\n\n### Response:\n",
  },
  {
    name: "DeepSeek chat defines add_generation_prompt when it is missing",
    template: DEEPSEEK,
    context: { messages: chatWithSystem, bos_token: "<｜begin▁of▁sentence｜>", eos_token: "<｜end▁of▁sentence｜>" },
    expected:
      "<｜begin▁of▁sentence｜>You are a friendly chatbot.\n\nUser: Hello, how are you?\n\n" +
      "Assistant: I'm doing great. How can I help you today?<｜end▁of▁sentence｜>" +
      "User: I'd like to show off how chat templating works!\n\n",
  },
  {
    name: "DeepSeek-R1 drops earlier reasoning and opens a think block",
    template: DEEPSEEK_R1,
    context: { messages: REASONING, bos_token: "<｜begin▁of▁sentence｜>", add_generation_prompt: true },
    expected: "<｜begin▁of▁sentence｜>Be brief.<｜User｜>2+2?<｜Assistant｜>4<｜end▁of▁sentence｜><｜User｜>3+3?<｜Assistant｜><think>\n",
  },
  {
    name: "Command-R with a system preamble",
    template: COMMAND_R,
    context: { messages: chatWithSystem, bos_token: "<BOS_TOKEN>", add_generation_prompt: true },
    expected:
      "<BOS_TOKEN><|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>You are a friendly chatbot.<|END_OF_TURN_TOKEN|>" +
      "<|START_OF_TURN_TOKEN|><|USER_TOKEN|>Hello, how are you?<|END_OF_TURN_TOKEN|>" +
      "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>I'm doing great. How can I help you today?<|END_OF_TURN_TOKEN|>" +
      "<|START_OF_TURN_TOKEN|><|USER_TOKEN|>I'd like to show off how chat templating works!<|END_OF_TURN_TOKEN|>" +
      "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>",
  },
  {
    name: "Command-R without a system message skips the preamble",
    template: COMMAND_R,
    context: { messages: chat.slice(0, 1), bos_token: "<BOS_TOKEN>", add_generation_prompt: false },
    expected: "<BOS_TOKEN><|START_OF_TURN_TOKEN|><|USER_TOKEN|>Hello, how are you?<|END_OF_TURN_TOKEN|>",
  },
  {
    name: "Llama 2 wraps the system prompt in <<SYS>>",
    template: LLAMA_2,
    context: { messages: chatWithSystem, bos_token: "<s>", eos_token: "</s>" },
    expected:
      "<s>[INST] <<SYS>>\nYou are a friendly chatbot.\n<</SYS>>\n\nHello, how are you? [/INST]" +
      " I'm doing great. How can I help you today? </s>" +
      "<s>[INST] I'd like to show off how chat templating works! [/INST]",
  },
  {
    name: "OpenChat title-cases roles",
    template: OPENCHAT,
    context: { messages: chat, bos_token: "<s>", add_generation_prompt: true },
    expected:
      "<s>GPT4 Correct User: Hello, how are you?<|end_of_turn|>" +
      "GPT4 Correct Assistant: I'm doing great. How can I help you today?<|end_of_turn|>" +
      "GPT4 Correct User: I'd like to show off how chat templating works!<|end_of_turn|>GPT4 Correct Assistant:",
  },
];

/** The templates themselves, for lint and limit tests. */
export const CHAT_TEMPLATES = {
  LLAMA_3,
  LLAMA_3_1,
  MISTRAL,
  MISTRAL_V3_TOOLS,
  CHATML_QWEN2,
  QWEN_2_5,
  GEMMA,
  GEMMA_3,
  PHI_3,
  ZEPHYR,
  VICUNA,
  ALPACA,
  DEEPSEEK,
  DEEPSEEK_R1,
  COMMAND_R,
  LLAMA_2,
  OPENCHAT,
} as const;
