/**
 * Chat templates of public models (see chat-templates.ts) rendered with the conventional
 * context (`messages`, `bos_token`, `eos_token`, `add_generation_prompt`, `tools`).
 */
import { CHAT_TEMPLATES } from "./chat-templates.ts";
import type { JinjaCorpusCase } from "./corpus-types.ts";

const T = CHAT_TEMPLATES;

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
    template: T.LLAMA_3,
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
    template: T.LLAMA_3_1,
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
    template: T.LLAMA_3_1,
    context: { messages: chat.slice(0, 1), bos_token: "<|begin_of_text|>", add_generation_prompt: false },
    expected:
      "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>" +
      "<|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|>",
  },
  {
    name: "Mistral Instruct alternates [INST] turns",
    template: T.MISTRAL,
    context: { messages: chat, bos_token: "<s>", eos_token: "</s>" },
    expected:
      "<s>[INST] Hello, how are you? [/INST]I'm doing great. How can I help you today?</s>[INST] I'd like to show off how chat templating works! [/INST]",
  },
  {
    name: "Mistral Instruct rejects a system message through raise_exception",
    template: T.MISTRAL,
    context: { messages: chatWithSystem, bos_token: "<s>", eos_token: "</s>" },
    expected: T.MISTRAL,
    error: "template_raised",
  },
  {
    name: "Mistral v0.3 lists available tools before the last user turn",
    template: T.MISTRAL_V3_TOOLS,
    context: {
      messages: [{ role: "user", content: "What's the weather in Paris?" }],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Get the weather",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
      ],
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
    template: T.MISTRAL_V3_TOOLS,
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
    template: T.CHATML_QWEN2,
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
    template: T.CHATML_QWEN2,
    context: { messages: chatWithSystem.slice(0, 2), add_generation_prompt: false },
    expected:
      "<|im_start|>system\nYou are a friendly chatbot.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n",
  },
  {
    name: "Qwen2.5 renders tools, a tool call and a tool response",
    template: T.QWEN_2_5,
    context: {
      tools: [weatherTool],
      messages: [
        { role: "user", content: "What's the weather in Paris?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ type: "function", function: { name: "get_weather", arguments: { city: "Paris" } } }],
        },
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
    template: T.QWEN_2_5,
    context: { messages: chatWithSystem.slice(0, 2), add_generation_prompt: true },
    expected:
      "<|im_start|>system\nYou are a friendly chatbot.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\n",
  },
  {
    name: "Gemma maps the assistant role to model",
    template: T.GEMMA,
    context: { messages: chat, bos_token: "<bos>", add_generation_prompt: true },
    expected:
      "<bos><start_of_turn>user\nHello, how are you?<end_of_turn>\n" +
      "<start_of_turn>model\nI'm doing great. How can I help you today?<end_of_turn>\n" +
      "<start_of_turn>user\nI'd like to show off how chat templating works!<end_of_turn>\n" +
      "<start_of_turn>model\n",
  },
  {
    name: "Gemma 3 prefixes the first user turn with the system prompt",
    template: T.GEMMA_3,
    context: { messages: chatWithSystem, bos_token: "<bos>", add_generation_prompt: true },
    expected:
      "<bos><start_of_turn>user\nYou are a friendly chatbot.\n\nHello, how are you?<end_of_turn>\n" +
      "<start_of_turn>model\nI'm doing great. How can I help you today?<end_of_turn>\n" +
      "<start_of_turn>user\nI'd like to show off how chat templating works!<end_of_turn>\n" +
      "<start_of_turn>model\n",
  },
  {
    name: "Gemma 3 renders multimodal content parts",
    template: T.GEMMA_3,
    context: {
      messages: [{ role: "user", content: [{ type: "image" }, { type: "text", text: " Describe this. " }] }],
      bos_token: "<bos>",
      add_generation_prompt: true,
    },
    expected: "<bos><start_of_turn>user\n<start_of_image>Describe this.<end_of_turn>\n<start_of_turn>model\n",
  },
  {
    name: "Phi-3 ends with eos when no generation prompt is requested",
    template: T.PHI_3,
    context: { messages: chatWithSystem, eos_token: "<|endoftext|>", add_generation_prompt: false },
    expected:
      "<|system|>\nYou are a friendly chatbot.<|end|>\n<|user|>\nHello, how are you?<|end|>\n" +
      "<|assistant|>\nI'm doing great. How can I help you today?<|end|>\n" +
      "<|user|>\nI'd like to show off how chat templating works!<|end|>\n<|endoftext|>",
  },
  {
    name: "Zephyr keeps the newline after each expression under trim_blocks",
    template: T.ZEPHYR,
    context: { messages: chatWithSystem, eos_token: "</s>", add_generation_prompt: true },
    expected:
      "<|system|>\nYou are a friendly chatbot.</s>\n<|user|>\nHello, how are you?</s>\n" +
      "<|assistant|>\nI'm doing great. How can I help you today?</s>\n" +
      "<|user|>\nI'd like to show off how chat templating works!</s>\n<|assistant|>\n",
  },
  {
    name: "Vicuna uses its default system message",
    template: T.VICUNA,
    context: { messages: chat, eos_token: "</s>", add_generation_prompt: true },
    expected:
      "A chat between a curious user and an artificial intelligence assistant. The assistant gives helpful, detailed, and polite answers to the user's questions." +
      " USER: Hello, how are you? ASSISTANT: I'm doing great. How can I help you today?</s>" +
      " USER: I'd like to show off how chat templating works! ASSISTANT:",
  },
  {
    name: "Alpaca instruction/response blocks",
    template: T.ALPACA,
    context: { messages: chatWithSystem, eos_token: "</s>", add_generation_prompt: true },
    expected:
      "You are a friendly chatbot.\n\n### Instruction:\nHello, how are you?\n\n" +
      "### Response:\nI'm doing great. How can I help you today?</s>\n\n" +
      "### Instruction:\nI'd like to show off how chat templating works!\n\n### Response:\n",
  },
  {
    name: "DeepSeek chat defines add_generation_prompt when it is missing",
    template: T.DEEPSEEK,
    context: { messages: chatWithSystem, bos_token: "<｜begin▁of▁sentence｜>", eos_token: "<｜end▁of▁sentence｜>" },
    expected:
      "<｜begin▁of▁sentence｜>You are a friendly chatbot.\n\nUser: Hello, how are you?\n\n" +
      "Assistant: I'm doing great. How can I help you today?<｜end▁of▁sentence｜>" +
      "User: I'd like to show off how chat templating works!\n\n",
  },
  {
    name: "DeepSeek-R1 drops earlier reasoning and opens a think block",
    template: T.DEEPSEEK_R1,
    context: { messages: REASONING, bos_token: "<｜begin▁of▁sentence｜>", add_generation_prompt: true },
    expected:
      "<｜begin▁of▁sentence｜>Be brief.<｜User｜>2+2?<｜Assistant｜>4<｜end▁of▁sentence｜><｜User｜>3+3?<｜Assistant｜><think>\n",
  },
  {
    name: "Command-R with a system preamble",
    template: T.COMMAND_R,
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
    template: T.COMMAND_R,
    context: { messages: chat.slice(0, 1), bos_token: "<BOS_TOKEN>", add_generation_prompt: false },
    expected: "<BOS_TOKEN><|START_OF_TURN_TOKEN|><|USER_TOKEN|>Hello, how are you?<|END_OF_TURN_TOKEN|>",
  },
  {
    name: "Llama 2 wraps the system prompt in <<SYS>>",
    template: T.LLAMA_2,
    context: { messages: chatWithSystem, bos_token: "<s>", eos_token: "</s>" },
    expected:
      "<s>[INST] <<SYS>>\nYou are a friendly chatbot.\n<</SYS>>\n\nHello, how are you? [/INST]" +
      " I'm doing great. How can I help you today? </s>" +
      "<s>[INST] I'd like to show off how chat templating works! [/INST]",
  },
  {
    name: "OpenChat title-cases roles",
    template: T.OPENCHAT,
    context: { messages: chat, bos_token: "<s>", add_generation_prompt: true },
    expected:
      "<s>GPT4 Correct User: Hello, how are you?<|end_of_turn|>" +
      "GPT4 Correct Assistant: I'm doing great. How can I help you today?<|end_of_turn|>" +
      "GPT4 Correct User: I'd like to show off how chat templating works!<|end_of_turn|>GPT4 Correct Assistant:",
  },
];
